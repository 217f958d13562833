:: bioconda's build of the `svb` command on Windows (conda-forge's Rust toolchain): as
:: build.sh, the licenses bundled, then the binary installed from the lockfile's versions.
cargo-bundle-licenses --format yaml --output THIRDPARTY.yml
if errorlevel 1 exit 1
cargo install --no-track --locked --verbose --root "%LIBRARY_PREFIX%" --path crates\svb-cli
if errorlevel 1 exit 1
