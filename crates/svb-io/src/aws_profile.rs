//! The AWS CLI's shared files (`~/.aws/config`, `~/.aws/credentials`) as the AWS SDKs read
//! them, for S3 stores: a profile's keys, region, endpoint, web identity and
//! `credential_process`, under the names object_store's S3 builder takes. The environment
//! names the files (`AWS_CONFIG_FILE`, `AWS_SHARED_CREDENTIALS_FILE`) and the profile
//! (`AWS_PROFILE`, else `default`); what the environment sets itself (`AWS_ACCESS_KEY_ID`,
//! `AWS_REGION`, ...) comes first, as in the SDKs. A profile that signs in another way
//! (IAM Identity Center, a role assumed from another profile) is an error that says how to
//! use it (a `credential_process` of the AWS CLI's `export-credentials`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use object_store::aws::AwsCredential;

/// What a profile gives an S3 store.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Profile {
    /// The profile's name.
    pub name: String,
    /// object_store S3 configuration keys and their values (`aws_access_key_id`,
    /// `aws_region`, `aws_endpoint`, ...).
    pub settings: Vec<(&'static str, String)>,
    /// The command of its `credential_process`, run for credentials.
    pub process: Option<String>,
}

/// One `[section]` of an INI file: its name and its `key = value` lines (keys in lower case).
type Section = (String, Vec<(String, String)>);

/// The sections of an AWS shared file: `[name]` headers, `key = value` lines (a line that
/// starts with white space continues a nested block, which is kept out), `#` and `;` comments.
fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push((name.trim().to_string(), Vec::new()));
        } else if let (Some((k, v)), Some(section)) = (line.split_once('='), out.last_mut()) {
            section.1.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    out
}

/// The keys of profile `name` in the config file (`[default]` or `[profile name]`) and the
/// credentials file (`[name]`), the latter's first.
fn keys_of(config: &str, credentials: &str, name: &str) -> Option<Vec<(String, String)>> {
    let in_config = |section: &str| {
        let s = section.trim();
        s == format!("profile {name}")
            || (name == "default" && s == "default")
            || s.strip_prefix("profile").is_some_and(|rest| rest.trim() == name)
    };
    let mut found = false;
    let mut keys = Vec::new();
    for (section, lines) in sections(credentials) {
        if section == name {
            found = true;
            keys.extend(lines);
        }
    }
    for (section, lines) in sections(config) {
        if in_config(&section) {
            found = true;
            keys.extend(lines);
        }
    }
    found.then_some(keys)
}

/// The profile the environment names, from the files it names (or `~/.aws/`): `None` when
/// no profile is named and there is no `default` one.
pub(crate) fn from_env() -> io::Result<Option<Profile>> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let home = var("HOME").or_else(|| var("USERPROFILE")).map(PathBuf::from);
    let file = |env: &str, default: &str| {
        var(env).map(PathBuf::from).or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
    };
    let config = file("AWS_CONFIG_FILE", "config");
    let credentials = file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    let named = var("AWS_PROFILE").or_else(|| var("AWS_DEFAULT_PROFILE"));
    let read = |p: &Option<PathBuf>| match p {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(text) => Ok(text),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(String::new()),
            Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", p.display()))),
        },
        None => Ok(String::new()),
    };
    let files: Vec<&Path> =
        [&config, &credentials].into_iter().flatten().map(|p| p.as_path()).collect();
    resolve(&read(&config)?, &read(&credentials)?, named.as_deref(), &files)
}

/// [`from_env`] of the files' texts: profile `named` (an error when they do not hold it), or
/// `default` where there is one.
pub(crate) fn resolve(
    config: &str, credentials: &str, named: Option<&str>, files: &[&Path],
) -> io::Result<Option<Profile>> {
    let name = named.unwrap_or("default");
    let Some(keys) = keys_of(config, credentials, name) else {
        return match named {
            None => Ok(None),
            Some(_) => Err(refused(format!(
                "AWS_PROFILE={name}: no such profile in {}",
                files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" or ")
            ))),
        };
    };
    let get = |k: &str| keys.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let unsupported = |how: &str| {
        refused(format!(
            "profile {name} signs in through {how}, which svb does not do itself: add \
             `credential_process = aws configure export-credentials --profile {name} --format \
             process` to a profile of its own and name that one (AWS_PROFILE), or set \
             AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (`aws configure \
             export-credentials --profile {name} --format env`)"
        ))
    };
    let mut p = Profile { name: name.to_string(), ..Profile::default() };
    let mut set = |key: &'static str, value: Option<String>| {
        if let Some(v) = value {
            p.settings.push((key, v));
        }
    };
    let static_keys = get("aws_access_key_id").is_some();
    set("aws_access_key_id", get("aws_access_key_id"));
    set("aws_secret_access_key", get("aws_secret_access_key"));
    set("aws_session_token", get("aws_session_token"));
    set("aws_region", get("region"));
    let endpoint = get("endpoint_url");
    if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) {
        set("aws_allow_http", Some("true".into()));
    }
    set("aws_endpoint", endpoint);
    let web_identity = get("web_identity_token_file").is_some();
    if web_identity {
        set("aws_web_identity_token_file", get("web_identity_token_file"));
        set("aws_role_arn", get("role_arn"));
        set("aws_role_session_name", get("role_session_name"));
    }
    p.process = get("credential_process");
    if !static_keys && !web_identity && p.process.is_none() {
        if get("sso_session").is_some() || get("sso_start_url").is_some() {
            return Err(unsupported("IAM Identity Center (sso_*)"));
        }
        if get("role_arn").is_some() {
            return Err(unsupported("a role assumed from another profile (role_arn)"));
        }
    }
    Ok(Some(p))
}

fn refused(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what)
}

/// Credentials from a profile's `credential_process` (the AWS CLI's contract: one JSON
/// object on its standard output, `Version` 1, `AccessKeyId`, `SecretAccessKey`, optional
/// `SessionToken` and `Expiration`), run again five minutes before they expire.
#[derive(Debug)]
pub(crate) struct ProcessCredentials {
    command: String,
    cached: Mutex<Option<(Arc<AwsCredential>, Option<SystemTime>)>>,
}

impl ProcessCredentials {
    pub(crate) fn new(command: String) -> ProcessCredentials {
        ProcessCredentials { command, cached: Mutex::new(None) }
    }

    fn get(&self) -> io::Result<Arc<AwsCredential>> {
        let mut cached = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        let soon = SystemTime::now() + Duration::from_secs(300);
        if let Some((c, expires)) = cached.as_ref() {
            if expires.is_none_or(|t| t > soon) {
                return Ok(c.clone());
            }
        }
        let (c, expires) = run_process(&self.command)?;
        let c = Arc::new(c);
        *cached = Some((c.clone(), expires));
        Ok(c)
    }
}

#[async_trait::async_trait]
impl object_store::CredentialProvider for ProcessCredentials {
    type Credential = AwsCredential;

    async fn get_credential(&self) -> object_store::Result<Arc<AwsCredential>> {
        self.get().map_err(|e| object_store::Error::Generic { store: "S3", source: Box::new(e) })
    }
}

/// Runs `command` (through the shell, as the AWS CLI does) and reads its credentials.
fn run_process(command: &str) -> io::Result<(AwsCredential, Option<SystemTime>)> {
    let what = |e: String| io::Error::other(format!("credential_process `{command}`: {e}"));
    let out = shell(command).output().map_err(|e| what(e.to_string()))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        return Err(what(format!("{} {}", out.status, said.trim())));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    credentials_of(&text).map_err(what)
}

#[cfg(unix)]
fn shell(command: &str) -> std::process::Command {
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(command);
    c
}

#[cfg(not(unix))]
fn shell(command: &str) -> std::process::Command {
    let mut c = std::process::Command::new("cmd");
    c.arg("/C").arg(command);
    c
}

/// The credentials of a `credential_process` answer.
fn credentials_of(json: &str) -> Result<(AwsCredential, Option<SystemTime>), String> {
    let field = |k: &str| json_string(json, k);
    if !json.contains("\"Version\"") || json_number(json, "Version") != Some(1) {
        return Err("its answer is not a JSON object of Version 1".into());
    }
    let key_id = field("AccessKeyId").ok_or("its answer has no AccessKeyId")?;
    let secret_key = field("SecretAccessKey").ok_or("its answer has no SecretAccessKey")?;
    let expires = match field("Expiration") {
        Some(t) => Some(rfc3339(&t).ok_or(format!("Expiration {t:?} is not an RFC 3339 time"))?),
        None => None,
    };
    Ok((AwsCredential { key_id, secret_key, token: field("SessionToken") }, expires))
}

/// The value after `"key":` in `json` when it is a string (escapes resolved).
fn json_string(json: &str, key: &str) -> Option<String> {
    let at = json.find(&format!("\"{key}\""))? + key.len() + 2;
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    loop {
        match chars.next()? {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                c => out.push(c),
            },
            c => out.push(c),
        }
    }
}

/// The value after `"key":` in `json` when it is a whole number.
fn json_number(json: &str, key: &str) -> Option<i64> {
    let at = json.find(&format!("\"{key}\""))? + key.len() + 2;
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let end = rest.find(|c: char| !c.is_ascii_digit() && c != '-').unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// An RFC 3339 time (`2026-11-28T12:00:00Z`, with a fraction or an offset too), to the
/// second.
fn rfc3339(t: &str) -> Option<SystemTime> {
    let secs = chrono::DateTime::parse_from_rfc3339(t).ok()?.timestamp();
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(secs).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "[default]\nregion = eu-west-2\n\n[profile lab]\nregion = us-east-1\n\
        endpoint_url = http://127.0.0.1:9000\ns3 =\n  addressing_style = path\n\n\
        [profile sso]\nsso_session = corp\nsso_account_id = 1\n\n\
        [profile proc]\ncredential_process = /bin/echo '{}'\n\n\
        [profile eks]\nrole_arn = arn:aws:iam::1:role/r\nweb_identity_token_file = /var/t\n\n\
        [profile assumed]\nrole_arn = arn:aws:iam::1:role/r\nsource_profile = default\n";
    const CREDENTIALS: &str = "# keys\n[default]\naws_access_key_id = AKIDDEFAULT\n\
        aws_secret_access_key = s1\n[lab]\naws_access_key_id=AKIDLAB\naws_secret_access_key=s2\n\
        aws_session_token = t2\n";

    fn get(p: &Profile, k: &str) -> Option<String> {
        p.settings.iter().find(|(key, _)| *key == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn profiles_resolve_as_the_sdks_read_them() {
        let files = [Path::new("config"), Path::new("credentials")];
        let d = resolve(CONFIG, CREDENTIALS, None, &files).unwrap().unwrap();
        assert_eq!(get(&d, "aws_access_key_id").as_deref(), Some("AKIDDEFAULT"));
        assert_eq!(get(&d, "aws_region").as_deref(), Some("eu-west-2"));
        let lab = resolve(CONFIG, CREDENTIALS, Some("lab"), &files).unwrap().unwrap();
        assert_eq!(get(&lab, "aws_access_key_id").as_deref(), Some("AKIDLAB"));
        assert_eq!(get(&lab, "aws_session_token").as_deref(), Some("t2"));
        assert_eq!(get(&lab, "aws_endpoint").as_deref(), Some("http://127.0.0.1:9000"));
        assert_eq!(get(&lab, "aws_allow_http").as_deref(), Some("true"));
        // The nested `s3 =` block is not a key of the profile.
        assert!(lab.settings.iter().all(|(_, v)| v != "path"));
        let eks = resolve(CONFIG, CREDENTIALS, Some("eks"), &files).unwrap().unwrap();
        assert_eq!(get(&eks, "aws_web_identity_token_file").as_deref(), Some("/var/t"));
        assert_eq!(get(&eks, "aws_role_arn").as_deref(), Some("arn:aws:iam::1:role/r"));
        let proc = resolve(CONFIG, CREDENTIALS, Some("proc"), &files).unwrap().unwrap();
        assert_eq!(proc.process.as_deref(), Some("/bin/echo '{}'"));
        for (name, how) in [("sso", "Identity Center"), ("assumed", "role assumed")] {
            let e = resolve(CONFIG, CREDENTIALS, Some(name), &files).unwrap_err().to_string();
            assert!(e.contains(how) && e.contains("export-credentials"), "{e}");
        }
        let e = resolve(CONFIG, CREDENTIALS, Some("nope"), &files).unwrap_err().to_string();
        assert!(e.contains("AWS_PROFILE=nope: no such profile in config or credentials"), "{e}");
        // No profile named and no default: nothing.
        assert_eq!(resolve("", "", None, &files).unwrap(), None);
    }

    #[test]
    fn a_process_answer_gives_its_credentials() {
        let answer = r#"{"Version": 1, "AccessKeyId": "AKIDPROC", "SecretAccessKey": "s\/3",
            "SessionToken": "tok", "Expiration": "2030-01-02T03:04:05Z"}"#;
        let (c, t) = credentials_of(answer).unwrap();
        assert_eq!((c.key_id.as_str(), c.secret_key.as_str()), ("AKIDPROC", "s/3"));
        assert_eq!(c.token.as_deref(), Some("tok"));
        let secs = t.unwrap().duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs();
        assert_eq!(secs, 1_893_553_445);
        assert!(credentials_of(r#"{"Version": 2, "AccessKeyId": "a"}"#).is_err());
        assert!(credentials_of(r#"{"Version": 1, "SecretAccessKey": "a"}"#).is_err());
        let offset = rfc3339("2030-01-02T05:04:05.123+02:00").unwrap();
        assert_eq!(offset, t.unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn a_process_is_run_and_its_failure_named() {
        let ok = ProcessCredentials::new(
            r#"printf '{"Version": 1, "AccessKeyId": "K", "SecretAccessKey": "S"}'"#.into(),
        );
        assert_eq!(ok.get().unwrap().key_id, "K");
        let bad = ProcessCredentials::new("echo nope >&2; exit 3".into());
        let e = bad.get().unwrap_err().to_string();
        assert!(e.contains("credential_process") && e.contains("nope"), "{e}");
    }
}
