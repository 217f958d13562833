#!/bin/bash
# bioconda's build of the `svb` command: the licenses of every crate it links bundled (the
# recipe's THIRDPARTY.yml), then the binary installed into the environment from the
# lockfile's versions.
set -euxo pipefail
cargo-bundle-licenses --format yaml --output THIRDPARTY.yml
cargo install --no-track --locked --verbose --root "${PREFIX}" --path crates/svb-cli
