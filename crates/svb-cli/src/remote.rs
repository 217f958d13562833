//! Objects on object stores and web servers: the options every command takes for them, and
//! the check that no argument carries a credential.

use clap::Args;

/// How objects named by URL (`s3://`, `gs://`, `az://`, `http(s)://`) are reached.
#[derive(Args, Debug, Default)]
pub struct Remote {
    /// Read objects without signing requests: public buckets such as ONT's open data
    /// (`s3://ont-open-data/...`), as the AWS CLI's option of the same name. Credentials
    /// otherwise come from the environment (AWS_*, GOOGLE_*, AZURE_*; AWS_ENDPOINT_URL for
    /// S3-compatible stores), for S3 from the AWS CLI's profile (AWS_PROFILE, else default,
    /// in ~/.aws/credentials and ~/.aws/config: keys, region, endpoint_url, web identity,
    /// credential_process), or the instance's metadata.
    #[arg(long, global = true, help_heading = "Global options")]
    pub no_sign_request: bool,
    /// An object store option as KEY=VALUE, e.g. aws_region=eu-west-2,
    /// aws_endpoint=http://127.0.0.1:9000, allow_http=true, timeout=60s (object_store's
    /// configuration keys); repeat for several. timeout is what one request may take (30 s
    /// by default; failures are retried for half of it), and a server that answers nothing
    /// is given up after 1.5 times it (45 s by default).
    #[arg(
        long = "storage-option",
        value_name = "KEY=VALUE",
        global = true,
        help_heading = "Global options"
    )]
    pub storage_options: Vec<String>,
}

impl Remote {
    /// Sets the options for every store opened from now on.
    pub fn apply(&self) -> Result<(), String> {
        let mut options = Vec::new();
        for o in &self.storage_options {
            let Some((k, v)) = o.split_once('=') else {
                return Err(format!("--storage-option {o}: expected KEY=VALUE"));
            };
            options.push((k.trim().to_string(), v.trim().to_string()));
        }
        if self.no_sign_request {
            options.push(("skip_signature".into(), "true".into()));
        }
        svb_io::remote::set_options(options);
        Ok(())
    }
}

/// The first argument that is a URL with a user name or password in it, refused before
/// anything is read (the secret would show in every message naming it).
pub fn refuse_credentials(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<(), String> {
    for a in args {
        if let Some(text) = a.to_str() {
            // An argument may hold a URL after an `=` (`--output=s3://...`).
            let url = text.split_once('=').map_or(text, |(_, v)| v);
            if svb_io::url_of(std::path::Path::new(url)).is_some() && svb_io::has_credentials(url) {
                return Err(svb_io::credentials_refused(url).to_string());
            }
        }
    }
    Ok(())
}
