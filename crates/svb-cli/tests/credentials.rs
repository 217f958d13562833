//! S3 credentials as the AWS CLI keeps them: a profile's keys (`~/.aws/credentials`), its
//! `credential_process`, the environment's keys before any profile's, and a profile that
//! signs in another way (IAM Identity Center) refused with how to use it. The store is the
//! test web server answering path-style S3 requests, which records each request's
//! `Authorization`: the key id a request was signed with is in its credential scope.

mod common;
use common::{ok, s};
use std::path::Path;
use svb_testdata::http_server::HttpServer;
use svb_testdata::TempDir;

/// Runs `svb args` against `server` as an S3 endpoint, with the AWS files of `home/.aws`
/// and `env` (the caller's own AWS_* variables removed).
fn svb_s3(
    server: &HttpServer, home: &Path, env: &[(&str, &str)], args: &[&str],
) -> std::process::Output {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_svb"));
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") {
            c.env_remove(k);
        }
    }
    c.args(args)
        .env("HOME", home)
        .env("AWS_ENDPOINT_URL", server.url(""))
        .env("AWS_ALLOW_HTTP", "true")
        .env("AWS_REGION", "us-east-1")
        // No instance metadata to fall back on: a request not signed by the profile fails.
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .envs(env.iter().copied())
        .output()
        .expect("the svb binary runs")
}

/// The key ids the server's requests since `from` were signed with.
fn key_ids(server: &HttpServer, from: usize) -> Vec<String> {
    let all = server.served.authorization.lock().unwrap();
    let mut ids: Vec<String> = all[from..]
        .iter()
        .map(|a| match a.split_once("Credential=") {
            Some((_, rest)) => rest.split('/').next().unwrap_or_default().to_string(),
            None => format!("unsigned: {a:?}"),
        })
        .collect();
    ids.dedup();
    ids
}

fn requests(server: &HttpServer) -> usize {
    server.served.authorization.lock().unwrap().len()
}

#[test]
fn s3_requests_are_signed_with_the_profile_the_environment_names() {
    let tmp = TempDir::new("credentials");
    let root = tmp.join("store");
    std::fs::create_dir_all(root.join("bucket")).unwrap();
    let signal: Vec<i16> = (0..100).collect();
    let reads: [(&str, &[i16]); 2] = [("read_1", &signal), ("read_2", &signal)];
    std::fs::write(root.join("bucket/x.blow5"), svb_testdata::blow5::of_reads(&reads)).unwrap();
    let server = HttpServer::start(&root);
    let aws = tmp.join(".aws");
    std::fs::create_dir_all(&aws).unwrap();
    std::fs::write(
        aws.join("config"),
        "[default]\nregion = us-east-1\n\n[profile lab]\nregion = us-east-1\n\n\
         [profile tool]\ncredential_process = printf '{\"Version\": 1, \"AccessKeyId\": \
         \"AKIDPROCESS\", \"SecretAccessKey\": \"secret\"}'\n\n\
         [profile corp]\nsso_session = corp\nsso_account_id = 111122223333\n\
         sso_role_name = reader\n",
    )
    .unwrap();
    std::fs::write(
        aws.join("credentials"),
        "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s0\n\n\
         [lab]\naws_access_key_id = AKIDLAB\naws_secret_access_key = s1\n",
    )
    .unwrap();
    let url = "s3://bucket/x.blow5";
    let view = ["view", url, "--fields", "read_id", "--no-header"];
    for (profile, key) in
        [(None, "AKIDDEFAULT"), (Some("lab"), "AKIDLAB"), (Some("tool"), "AKIDPROCESS")]
    {
        let from = requests(&server);
        let env: Vec<(&str, &str)> = profile.map(|p| ("AWS_PROFILE", p)).into_iter().collect();
        let out = ok(&svb_s3(&server, &tmp.0, &env, &view));
        assert_eq!(out, "read_1\nread_2\n", "{profile:?}");
        assert_eq!(key_ids(&server, from), [key], "{profile:?}");
    }
    // The environment's keys come before any profile's.
    let from = requests(&server);
    let env =
        [("AWS_PROFILE", "lab"), ("AWS_ACCESS_KEY_ID", "AKIDENV"), ("AWS_SECRET_ACCESS_KEY", "e")];
    ok(&svb_s3(&server, &tmp.0, &env, &view));
    assert_eq!(key_ids(&server, from), ["AKIDENV"]);
    // Files named by the environment.
    let elsewhere = tmp.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(
        elsewhere.join("c"),
        "[other]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = o\n",
    )
    .unwrap();
    let from = requests(&server);
    let c = elsewhere.join("c");
    let env = [("AWS_PROFILE", "other"), ("AWS_SHARED_CREDENTIALS_FILE", s(&c))];
    ok(&svb_s3(&server, &tmp.0, &env, &view));
    assert_eq!(key_ids(&server, from), ["AKIDOTHER"]);
    // A profile that signs in through IAM Identity Center: refused, saying how to use it.
    let out = svb_s3(&server, &tmp.0, &[("AWS_PROFILE", "corp")], &view);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("export-credentials --profile corp"), "{e}");
    // A profile that is not there is named.
    let out = svb_s3(&server, &tmp.0, &[("AWS_PROFILE", "nowhere")], &view);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("AWS_PROFILE=nowhere: no such profile"), "{e}");
    // Unsigned requests read no profile (a broken one included).
    let from = requests(&server);
    let mut args = view.to_vec();
    args.push("--no-sign-request");
    ok(&svb_s3(&server, &tmp.0, &[("AWS_PROFILE", "corp")], &args));
    assert!(key_ids(&server, from).iter().all(|k| k.starts_with("unsigned")));
}

/// Azure: where nothing else gives a credential and the Azure CLI has signed in (`az login`:
/// its profile lists a subscription), each request carries the CLI's token (`az account
/// get-access-token`, here a stand-in `az` on PATH); a key in the environment comes first,
/// and a CLI the user declined or that has not signed in is not asked.
#[cfg(unix)]
#[test]
fn azure_requests_carry_the_azure_clis_token() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("credentials-azure");
    let root = tmp.join("store");
    std::fs::create_dir_all(root.join("container")).unwrap();
    let signal: Vec<i16> = (0..100).collect();
    let reads: [(&str, &[i16]); 1] = [("read_1", &signal)];
    std::fs::write(root.join("container/x.blow5"), svb_testdata::blow5::of_reads(&reads)).unwrap();
    let server = HttpServer::start(&root);
    // A stand-in for the Azure CLI: the token a signed-in `az` prints.
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let az = bin.join("az");
    std::fs::write(
        &az,
        "#!/bin/sh\n[ \"$1 $2\" = \"account get-access-token\" ] || exit 2\n\
         echo '{\"accessToken\": \"cli-token\", \"expiresOn\": \"2099-01-01 00:00:00.000000\", \
         \"tokenType\": \"Bearer\"}'\n",
    )
    .unwrap();
    std::fs::set_permissions(&az, std::fs::Permissions::from_mode(0o755)).unwrap();
    let profile = |subscriptions: &str| {
        std::fs::create_dir_all(tmp.join(".azure")).unwrap();
        std::fs::write(
            tmp.join(".azure/azureProfile.json"),
            format!("\u{feff}{{\"installationId\": \"i\", \"subscriptions\": {subscriptions}}}"),
        )
        .unwrap();
    };
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let view = |env: &[(&str, &str)]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_svb"));
        for (k, _) in std::env::vars() {
            if k.starts_with("AZURE_") {
                c.env_remove(k);
            }
        }
        c.args(["view", "az://container/x.blow5", "--fields", "read_id", "--no-header"])
            .args(["--storage-option", "allow_http=true", "--storage-option", "timeout=5s"])
            .env("HOME", &tmp.0)
            .env("PATH", &path)
            .env("AZURE_STORAGE_ACCOUNT_NAME", "lab")
            .env("AZURE_STORAGE_ENDPOINT", server.url(""))
            // No instance metadata service to fall back on.
            .env("IDENTITY_ENDPOINT", "http://127.0.0.1:9/none")
            .env("MSI_ENDPOINT", "http://127.0.0.1:9/none")
            .envs(env.iter().copied())
            .output()
            .unwrap()
    };
    let tokens = |from: usize| -> Vec<String> {
        let all = server.served.authorization.lock().unwrap();
        let mut v: Vec<String> = all[from..].to_vec();
        v.dedup();
        v
    };
    profile(r#"[{"id": "0000", "isDefault": true, "state": "Enabled"}]"#);
    let from = requests(&server);
    assert_eq!(ok(&view(&[])), "read_1\n");
    assert_eq!(tokens(from), ["Bearer cli-token"]);
    // A key in the environment comes first (requests signed with it, not the CLI's token).
    let from = requests(&server);
    let key = ("AZURE_STORAGE_ACCOUNT_KEY", "c2VjcmV0IGtleSBvZiB0aGUgbGFi");
    assert_eq!(ok(&view(&[key])), "read_1\n");
    assert!(tokens(from).iter().all(|a| a.starts_with("SharedKey lab:")), "{:?}", tokens(from));
    // The user's own `azure_use_azure_cli=false`: the CLI is not asked.
    let from = requests(&server);
    assert!(!view(&[("AZURE_USE_AZURE_CLI", "false")]).status.success());
    assert!(tokens(from).iter().all(|a| !a.contains("cli-token")), "{:?}", tokens(from));
    // Signed out (`az logout` empties the list): the CLI is not asked.
    profile("[]");
    let from = requests(&server);
    let out = view(&[]);
    assert!(!out.status.success());
    assert!(tokens(from).iter().all(|a| !a.contains("cli-token")), "{:?}", tokens(from));
}
