//! A command's inputs: directories walked once each, however links loop.

use std::path::Path;
use svb_model::Format;
use svb_reads::expand_inputs;
use svb_testdata::TempDir;

#[cfg(unix)]
#[svb_testdata::data_test]
fn looping_links_are_walked_once_and_the_walk_ends(data: &Path, tmp: &TempDir) {
    let sub = tmp.join("L/sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(data.join("pod5/multi_fast5_zip.pod5"), sub.join("a.pod5")).unwrap();
    // A link back up the tree, and a link to the directory itself: each walk of `sub` meets
    // both, and neither may be walked again.
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("../sub", sub.join("self")).unwrap();
    let (format, files) = expand_inputs(&[tmp.join("L")], true).unwrap();
    assert_eq!(format, Format::Pod5);
    assert_eq!(files, [sub.join("a.pod5")]);
    // The same directory given twice, by its name and through a link: walked once.
    let (_, files) = expand_inputs(&[sub.clone(), sub.join("self")], true).unwrap();
    assert_eq!(files, [sub.join("a.pod5")]);
}
