//! `svb split`: POD5 and BLOW5 files split by reads, files, field and table, with few outputs
//! open at a time; merged back they give every read and field of the input; an output that
//! exists stops it before anything is written.

mod common;
use common::{fails, ok, s, svb};

use std::path::{Path, PathBuf};
use svb_testdata::TempDir;

fn outputs(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

#[svb_testdata::data_test]
fn pod5_split_every_way_and_merged_back(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let verify = |f: &Path| ok(&svb(&["pod5", "verify", s(f)]));
    let whole = verify(&src);
    let sorted = |t: String| {
        let mut l: Vec<String> = t.lines().map(str::to_owned).collect();
        l.sort();
        l
    };
    // Parts of 3 reads, written 2 at a time: part0000..part0003, merged back in order.
    let parts = tmp.join("parts");
    ok(&svb(&["split", s(&src), "-o", s(&parts), "--reads", "3", "--max-open", "2"]));
    let files = outputs(&parts, "pod5");
    let names: Vec<String> =
        files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["part0000.pod5", "part0001.pod5", "part0002.pod5", "part0003.pod5"]);
    let back = tmp.join("back.pod5");
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| s(f)));
    args.extend(["-o", s(&back)]);
    ok(&svb(&args));
    assert_eq!(verify(&back), whole);
    // Two files of five.
    let two = tmp.join("two");
    ok(&svb(&["split", s(&src), "-o", s(&two), "--files", "2"]));
    let halves: Vec<usize> =
        outputs(&two, "pod5").iter().map(|f| svb_pod5::Reader::open(f).unwrap().len()).collect();
    assert_eq!(halves, [5, 5]);
    // By channel: each file one channel, every read once.
    let by = tmp.join("by_channel");
    ok(&svb(&["split", s(&src), "-o", s(&by), "--by", "channel"]));
    let mut all = String::new();
    for f in outputs(&by, "pod5") {
        let r = svb_pod5::Reader::open(&f).unwrap();
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(r.reads().iter().all(|x| x.info.channel.to_string() == stem), "{stem}");
        all.push_str(&verify(&f));
    }
    assert_eq!(sorted(all), sorted(whole.clone()));
    // A table: ids to a / b, one id left out; --column names the destination.
    let ids: Vec<String> = (0..10)
        .map(|i| svb_pod5::Reader::open(&src).unwrap().reads()[i].read_id_string())
        .collect();
    let table = tmp.join("t.tsv");
    let rows: Vec<String> = ids[1..]
        .iter()
        .enumerate()
        .map(|(k, id)| format!("x\t{id}\t{}", if k % 2 == 0 { "a" } else { "b" }))
        .collect();
    std::fs::write(&table, format!("other\tread_id\tbarcode\n{}\n", rows.join("\n"))).unwrap();
    let demux = tmp.join("demux");
    let split = |more: &[&str]| {
        let args = ["split", s(&src), "-o", s(&demux), "--table", s(&table)];
        svb(&[&args[..], &["--column", "barcode"], more].concat())
    };
    let out = split(&[]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    ok(&out);
    assert!(said.contains("1 reads the table does not list"), "{said}");
    let counts: Vec<usize> =
        outputs(&demux, "pod5").iter().map(|f| svb_pod5::Reader::open(f).unwrap().len()).collect();
    assert_eq!(counts, [5, 4]);
    // CSV, the destination before the id; lines of ids the input lacks are read and skipped,
    // an id listed twice to one destination is one read.
    let csv = tmp.join("t.csv");
    let mut lines = vec!["barcode,read_id".to_string()];
    lines.extend(ids.iter().map(|id| format!("c,{id}")));
    lines.push(format!("c,{}", ids[3]));
    lines.extend((0..1000).map(|i| format!("z,00000000-0000-0000-0000-{i:012}")));
    lines.push("z,not-a-uuid".into());
    std::fs::write(&csv, lines.join("\n")).unwrap();
    let by_csv = tmp.join("by_csv");
    ok(&svb(&["split", s(&src), "-o", s(&by_csv), "--table", s(&csv)]));
    let files = outputs(&by_csv, "pod5");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(svb_pod5::Reader::open(&files[0]).unwrap().len(), 10);
    // Bad tables: an id sent to two destinations, a short line, no read_id column; each
    // named by file and line, nothing written.
    for (name, text, says) in [
        ("twice.csv", format!("read_id,barcode\n{},a\n{},b\n", ids[2], ids[2]), "line 3: read"),
        ("short.csv", format!("read_id,barcode\n{}\n", ids[2]), "line 2: 1 columns"),
        ("noid.csv", format!("id,barcode\n{},a\n", ids[2]), "line 1: no read_id"),
    ] {
        let t = tmp.join(name);
        std::fs::write(&t, text).unwrap();
        let dir = tmp.join(&format!("bad_{name}"));
        let e = fails(&svb(&["split", s(&src), "-o", s(&dir), "--table", s(&t)]));
        assert!(e.contains(name) && e.contains(says), "{e}");
        assert!(!dir.exists() || outputs(&dir, "pod5").is_empty());
    }
    // An output that exists: refused before anything is written, replaced with --force.
    let before = std::fs::read(demux.join("a.pod5")).unwrap();
    let e = fails(&split(&[]));
    assert!(e.contains("a.pod5"), "{e}");
    assert_eq!(std::fs::read(demux.join("a.pod5")).unwrap(), before);
    ok(&split(&["--force"]));
}

#[svb_testdata::data_test]
fn blow5_split_by_read_group_keeps_each_group_and_merges_back(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let r = svb_blow5::Reader::open(&src).unwrap();
    let groups = r.header().read_groups.clone();
    assert!(groups.len() > 1);
    let dir = tmp.join("groups");
    ok(&svb(&["split", s(&src), "-o", s(&dir), "--by", "read-group", "--max-open", "2"]));
    let files = outputs(&dir, "blow5");
    let mut back = Vec::new();
    for f in &files {
        let o = svb_blow5::Reader::open(f).unwrap();
        // Each output lists only its group, and it is the input's.
        assert_eq!(o.header().read_groups.len(), 1, "{}", f.display());
        let g: usize = f.file_stem().unwrap().to_string_lossy()[2..].parse().unwrap();
        assert_eq!(o.header().read_groups[0], groups[g]);
        // Group 0 keeps its number: its records are copied as stored, byte for byte.
        if g == 0 {
            for i in 0..o.len() {
                let id = o.read_id(i).unwrap();
                let at = (0..r.len()).find(|&j| r.read_id(j).unwrap() == id).unwrap();
                assert_eq!(o.stored_record(i).unwrap(), r.stored_record(at).unwrap());
            }
        }
        for rec in o.records() {
            let mut rec = rec.unwrap();
            rec.read_group = g as u32;
            back.push(format!("{rec:?}"));
        }
    }
    let mut want: Vec<String> = r.records().map(|x| format!("{:?}", x.unwrap())).collect();
    want.sort();
    back.sort();
    assert_eq!(back, want);
    // As SLOW5 text, in parts of 2 records.
    let text = tmp.join("text");
    ok(&svb(&["split", s(&src), "-o", s(&text), "--reads", "2", "--to", "slow5"]));
    let n: usize =
        outputs(&text, "slow5").iter().map(|f| svb_blow5::Reader::open(f).unwrap().len()).sum();
    assert_eq!(n, r.len());
}

#[svb_testdata::data_test]
fn a_template_names_the_outputs_and_a_bad_one_writes_nothing(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let by = tmp.join("by_channel");
    ok(&svb(&[
        "split",
        s(&src),
        "-o",
        s(&by),
        "--by",
        "channel",
        "--template",
        "channel_{key}_reads",
    ]));
    let files = outputs(&by, "pod5");
    assert!(!files.is_empty());
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let channel = name
            .strip_prefix("channel_")
            .and_then(|n| n.strip_suffix("_reads.pod5"))
            .unwrap_or_else(|| panic!("{name}"));
        let r = svb_pod5::Reader::open(f).unwrap();
        assert!(r.reads().iter().all(|x| x.info.channel.to_string() == channel));
    }
    // The extension is not added twice; BLOW5 outputs take theirs.
    let b5 = tmp.join("b5");
    let blow5 = tmp.join("in.blow5");
    ok(&svb(&["convert", s(&src), "-o", s(&blow5)]));
    ok(&svb(&["split", s(&blow5), "-o", s(&b5), "--files", "2", "--template", "half-{key}.blow5"]));
    let names: Vec<String> = outputs(&b5, "blow5")
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["half-part0000.blow5", "half-part0001.blow5"]);
    // No {key} (every output one name), or a name outside the directory: refused, nothing
    // written.
    for (bad, said) in [("all", "no {key}"), ("../{key}", "not a plain file name")] {
        let out = tmp.join(format!("bad-{}", bad.len()).as_str());
        let e =
            fails(&svb(&["split", s(&src), "-o", s(&out), "--by", "channel", "--template", bad]));
        assert!(e.contains(said), "{bad}: {e}");
        assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
    }
}

/// A table of several destination columns and another read id column, as `pod5 subset
/// --columns a b -R COL` takes it: each output named `a-VALUE_b-VALUE`, the name pod5 subset
/// gives it, with the same reads (checked against ONT's tool where it is installed).
#[svb_testdata::data_test]
fn a_table_of_several_columns_splits_as_pod5_subset(data: &Path, tmp: &TempDir) {
    let input = data.join("pod5/multi_fast5_zip.pod5");
    let r = svb_pod5::Reader::open(&input).unwrap();
    let ids: Vec<String> = r.reads().iter().map(|x| x.read_id_string()).collect();
    let rows: String = ids
        .iter()
        .enumerate()
        .map(|(k, id)| {
            format!("{},bc{:02},{}\n", id, k % 3, if k % 2 == 0 { "hg" } else { "ecoli" })
        })
        .collect();
    let table = tmp.join("table.csv");
    std::fs::write(&table, format!("rid,barcode,genome\n{rows}")).unwrap();
    let dir = tmp.join("ours");
    let args = ["split", s(&input), "--table", s(&table), "--columns", "barcode", "genome"];
    ok(&svb(&[&args[..], &["-R", "rid", "-o", s(&dir)]].concat()));
    let reads_of = |dir: &Path| -> Vec<(String, Vec<String>)> {
        outputs(dir, "pod5")
            .into_iter()
            .map(|f| {
                let r = svb_pod5::Reader::open(&f).unwrap();
                let mut ids: Vec<String> = r.reads().iter().map(|x| x.read_id_string()).collect();
                ids.sort();
                (f.file_name().unwrap().to_string_lossy().into_owned(), ids)
            })
            .collect()
    };
    let ours = reads_of(&dir);
    assert_eq!(ours.len(), 6, "{ours:?}");
    assert!(ours.iter().any(|(name, _)| name == "barcode-bc00_genome-hg.pod5"), "{ours:?}");
    assert_eq!(ours.iter().map(|(_, r)| r.len()).sum::<usize>(), ids.len());
    let Some(python) = svb_testdata::python_with("pod5", "pod5") else { return };
    let theirs = tmp.join("theirs");
    let run = std::process::Command::new(&python)
        .args(["-m", "pod5.tools.main", "subset"])
        .arg(&input)
        .arg("--table")
        .arg(&table)
        .args(["--columns", "barcode", "genome", "-R", "rid", "-o"])
        .arg(&theirs)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(ours, reads_of(&theirs));
}

/// `svb split -x` demultiplexes as slow5tools split does: each of slow5tools' own demux cases
/// (`test_split.sh` 17-33: a read under one or several barcodes, `-u`, `-m`, custom columns,
/// SLOW5 and BLOW5 out) gives its expected files byte for byte; a table naming a read the
/// input lacks, a `-u` category that is one of the table's, and a `-m` category that is one of
/// the table's or `-u`'s, are errors writing nothing.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn demux_is_slow5tools_splits_byte_for_byte() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let data = repos.join("slow5tools/test/data");
    let (raw, exp) = (data.join("raw/split"), data.join("exp/split"));
    let tmp = TempDir::new("split-demux");
    // slow5tools' command lines, RAW its raw/split folder.
    let cases = [
        ("demux1", "-x RAW/demux1/barcode_summary.txt RAW/demux1/example2_0.slow5 --to slow5"),
        ("demux2", "-x RAW/demux2/barcode_summary.txt RAW/demux2/example2_0.slow5 --to blow5"),
        ("demux3", "--to blow5 RAW/demux3/example2_0.slow5 -x RAW/demux3/bs.txt"),
        ("demux4", "--to slow5 RAW/demux4/example2_0.blow5 -x RAW/demux4/summary"),
        ("demux5", "--to slow5 RAW/demux5/example2_0.blow5 --demux RAW/demux5/custom --demux-rid=MyCustomId --demux-code BC0D35!"),
        ("demux7", "--to slow5 RAW/demux7/example2_0.blow5 --demux RAW/demux7/barcode_summary.txt"),
        ("demux1", "-x RAW/demux1/barcode_summary.txt RAW/demux1/example2_0.slow5 --to slow5 -u mixed"),
        ("demux2", "-x RAW/demux2/barcode_summary.txt RAW/demux2/example2_0.slow5 --to blow5 --demux-uniq mixed"),
        ("demux3-uniq", "-u mixed --to blow5 RAW/demux3/example2_0.slow5 -x RAW/demux3/bs.txt"),
        ("demux4-uniq", "--to slow5 --demux-uniq mixed RAW/demux4/example2_0.blow5 -x RAW/demux4/summary"),
        ("demux5-uniq", "--to slow5 RAW/demux5/example2_0.blow5 -u abc --demux RAW/demux5/custom --demux-rid=MyCustomId --demux-code BC0D35!"),
        ("demux7-uniq", "--to slow5 RAW/demux7/example2_0.blow5 --demux-uniq hodjbodj --demux RAW/demux7/barcode_summary.txt"),
        ("demux9", "-x RAW/demux9/barcode_summary.txt RAW/demux2/example2_0.slow5 --to slow5 -u vmixed --demux-rid rid --demux-code code"),
        ("demux10", "-x RAW/demux9/barcode_summary.txt RAW/demux10/example2_0_multi.slow5 --to slow5 --demux-rid rid --demux-code code"),
        ("demux10-uniq", "-x RAW/demux9/barcode_summary.txt RAW/demux10/example2_0_multi.slow5 --to slow5 --demux-rid rid --demux-code code -u vmixed"),
        ("demux11", "-x RAW/demux11/onemissing.txt RAW/demux10/example2_0_multi.slow5 --to slow5 --demux-rid rid --demux-code code -m missing"),
        ("demux10-uniq-lossy", "-x RAW/demux9/barcode_summary.txt RAW/demux10/example2_0_multi.slow5 --to slow5 --demux-rid rid --demux-code code -u vmixed --lossless false"),
        // One extra (a table id the input lacks), and a -u category that is one of the table's.
        ("", "--to slow5 RAW/demux6/example2_0.blow5 --demux RAW/demux6/barcode_summary.txt"),
        ("", "-x RAW/demux1/barcode_summary.txt RAW/demux1/example2_0.slow5 --to slow5 -u unclassified"),
        // An -m category that is one of the table's, or -u's (slow5tools' cases 37 and 38).
        ("", "-x RAW/demux1/barcode_summary.txt RAW/demux1/example2_0.slow5 --to slow5 -m unclassified"),
        ("", "-x RAW/demux1/barcode_summary.txt RAW/demux1/example2_0.slow5 --to slow5 -u mixed -m mixed"),
    ];
    let raw = s(&raw).to_string();
    for (n, (name, line)) in cases.iter().enumerate() {
        let out = tmp.join(&format!("out{n}"));
        let line = line.replace("RAW", &raw);
        let mut argv: Vec<&str> = vec!["split"];
        argv.extend(line.split_whitespace());
        argv.extend(["-o", s(&out)]);
        if name.is_empty() {
            let e = fails(&svb(&argv));
            let named = ["no read of the input", "one of the table's", "sent to several"];
            assert!(named.iter().any(|n| e.contains(n)), "{e}");
            assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(), "{line}");
            continue;
        }
        ok(&svb(&argv));
        let want =
            outputs(&exp.join(name), "slow5").len() + outputs(&exp.join(name), "blow5").len();
        let got: Vec<PathBuf> =
            std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(got.len(), want, "{line}");
        for f in got {
            let theirs = exp.join(name).join(f.file_name().unwrap());
            let same = std::fs::read(&f).unwrap() == std::fs::read(&theirs).unwrap();
            assert!(same, "{line}: {}", f.display());
        }
    }
}

/// `--lossless false` (slow5tools split's `-l false`): parts without auxiliary fields, byte for
/// byte slow5tools' (its own cases: a lossy read-group split, 11 reads in parts of 2; the parts
/// are named by svb's keys, `rgN` and `partNNNN`; with `--per-input` slow5tools' `STEM_N`); a POD5
/// split refuses it.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn lossless_false_is_slow5tools_lossy_split() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let data = repos.join("slow5tools/test/data");
    let tmp = TempDir::new("split-lossy");
    let cases = [
        (
            "multi_group_slow5s/lossy_rg.slow5",
            "--by read-group",
            "lossy_expected_slow5s",
            "lossy_rg_",
            "rg",
        ),
        (
            "single_group_slow5s/11reads.slow5",
            "--reads 2",
            "expected_split_reads_slow5s",
            "11reads_",
            "part000",
        ),
    ];
    for (input, how, exp, theirs, ours) in cases {
        let out = tmp.join(exp);
        let input = data.join("raw/split").join(input);
        let mut argv = vec!["split", s(&input), "-l", "false", "--to", "slow5", "-o", s(&out)];
        argv.extend(how.split_whitespace());
        ok(&svb(&argv));
        let want = outputs(&data.join("exp/split").join(exp), "slow5");
        assert_eq!(outputs(&out, "slow5").len(), want.len(), "{exp}");
        for i in 0..want.len() {
            let a = std::fs::read(out.join(format!("{ours}{i}.slow5"))).unwrap();
            let b =
                std::fs::read(data.join("exp/split").join(exp).join(format!("{theirs}{i}.slow5")))
                    .unwrap();
            assert!(a == b, "{exp} part {i}");
        }
    }
}

/// `--per-input` splits each input on its own and names its parts as slow5tools split does
/// (`STEM_N`): slow5tools' own read-group, read-count and file-count cases (`test_split.sh`
/// 1-8) give its expected folders, every file name, and byte for byte where slow5tools' text
/// is what svb writes (`--lossless false`: no auxiliary field, whose floats slow5tools prints
/// with 6 decimals; else every header line and every record's id and samples); a folder of two
/// files is split file by file; two inputs of one stem are refused, writing nothing.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn per_input_parts_are_named_as_slow5tools_names_them() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let data = repos.join("slow5tools/test/data");
    let (raw, exp) = (data.join("raw/split"), data.join("exp/split"));
    let tmp = TempDir::new("split-per-input");
    // (slow5tools' expected folder, svb's arguments with RAW its raw/split folder, whether the
    // parts are byte for byte slow5tools').
    let cases = [
        ("expected_group_split_slow5s", "--by read-group RAW/multi_group_slow5s/rg.slow5", false),
        (
            "lossy_expected_slow5s",
            "--by read-group -l false RAW/multi_group_slow5s/lossy_rg.slow5",
            true,
        ),
        (
            "expected_group_split_blow5_input",
            "--by read-group RAW/multi_group_blow5s/example_multi_rg_v0.1.0.blow5",
            false,
        ),
        (
            "expected_group_split_enum",
            "--by read-group RAW/multi_group_enum/with_and_without_enum.slow5",
            false,
        ),
        (
            "expected_split_reads_slow5s",
            "--reads 2 -l false RAW/single_group_slow5s/11reads.slow5",
            true,
        ),
        (
            "expected_split_files_slow5s",
            "--files 3 -l false RAW/single_group_slow5s/11reads.slow5",
            true,
        ),
        (
            "expected_split_groups_slow5s",
            "--by read-group -l false -r RAW/multi_group_slow5s",
            true,
        ),
    ];
    let header = |text: &str| -> Vec<String> {
        text.lines().take_while(|l| l.starts_with(['#', '@'])).map(str::to_owned).collect()
    };
    let raw_s = s(&raw).to_string();
    for (n, (name, line, bytes)) in cases.iter().enumerate() {
        let out = tmp.join(&format!("out{n}"));
        let line = line.replace("RAW", &raw_s);
        let mut argv: Vec<&str> = vec!["split", "--per-input", "--to", "slow5", "-o", s(&out)];
        argv.extend(line.split_whitespace());
        ok(&svb(&argv));
        let names = |dir: &Path| -> Vec<String> {
            let mut v: Vec<String> = outputs(dir, "slow5")
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(&out), names(&exp.join(name)), "{line}");
        for f in names(&out) {
            let (ours, theirs) = (out.join(&f), exp.join(name).join(&f));
            if *bytes {
                let same = std::fs::read(&ours).unwrap() == std::fs::read(&theirs).unwrap();
                assert!(same, "{line}: {f}");
                continue;
            }
            let text = |p: &Path| std::fs::read_to_string(p).unwrap();
            assert_eq!(header(&text(&ours)), header(&text(&theirs)), "{line}: {f}");
            let (a, b) = (
                svb_blow5::Reader::open(&ours).unwrap(),
                svb_blow5::Reader::open(&theirs).unwrap(),
            );
            assert_eq!(a.len(), b.len(), "{line}: {f}");
            for k in 0..a.len() {
                let (x, y) = (a.record(k).unwrap(), b.record(k).unwrap());
                assert_eq!((&x.read_id, &x.raw_signal), (&y.read_id, &y.raw_signal), "{f}");
            }
        }
    }
    // Two inputs of one stem: refused before anything is written.
    let (a, b) = (tmp.join("a"), tmp.join("b"));
    for d in [&a, &b] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::copy(raw.join("single_group_slow5s/11reads.slow5"), d.join("x.slow5")).unwrap();
    }
    let (out, xa, xb) = (tmp.join("clash"), a.join("x.slow5"), b.join("x.slow5"));
    let e = fails(&svb(&["split", "--per-input", "--reads", "4", s(&xa), s(&xb), "-o", s(&out)]));
    assert!(e.contains("one file stem"), "{e}");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}
