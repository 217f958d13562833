//! One rule for every value: the Arrow columns of every shared file (POD5 of each table
//! version, BLOW5 of each compression and writer, FAST5 of each layout and version) hold the
//! read model's fields (`svb_model::ReadSource::fields`) value by value, missing values
//! included (`Value::None` is a null).

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use svb_arrow::{Options, ReadBatches};
use svb_model::{ReadSource, Value};
use svb_reads::AnyReader;

/// Row `row` of `a` as a model value (a null as `Value::None`).
fn value_at(a: &dyn Array, row: usize) -> Value {
    if a.is_null(row) {
        return Value::None;
    }
    macro_rules! prim {
        ($t:ty, $v:ident, $conv:expr) => {
            Value::$v($conv(a.as_primitive::<$t>().value(row)))
        };
    }
    match a.data_type() {
        DataType::Boolean => Value::Bool(a.as_boolean().value(row)),
        DataType::UInt8 => prim!(UInt8Type, UInt, u64::from),
        DataType::UInt16 => prim!(UInt16Type, UInt, u64::from),
        DataType::UInt32 => prim!(UInt32Type, UInt, u64::from),
        DataType::UInt64 => prim!(UInt64Type, UInt, u64::from),
        DataType::Int8 => prim!(Int8Type, Int, i64::from),
        DataType::Int16 => prim!(Int16Type, Int, i64::from),
        DataType::Int32 => prim!(Int32Type, Int, i64::from),
        DataType::Int64 => prim!(Int64Type, Int, i64::from),
        DataType::Float32 => prim!(Float32Type, Float, f64::from),
        DataType::Float64 => prim!(Float64Type, Float, f64::from),
        DataType::Utf8 => Value::Text(a.as_string::<i32>().value(row).to_string()),
        DataType::Binary => Value::Bytes(a.as_binary::<i32>().value(row).to_vec()),
        DataType::Dictionary(_, _) => {
            let d = a.as_dictionary::<UInt8Type>();
            let key = d.keys().value(row) as usize;
            Value::Text(d.values().as_string::<i32>().value(key).to_string())
        }
        DataType::List(item) => {
            let list = a.as_list::<i32>().value(row);
            let items: Vec<Value> = (0..list.len()).map(|i| value_at(&list, i)).collect();
            if matches!(item.data_type(), DataType::Float32 | DataType::Float64) {
                Value::Floats(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Float(f) => *f,
                            other => panic!("a float list holds {other:?}"),
                        })
                        .collect(),
                )
            } else {
                Value::Ints(
                    items
                        .iter()
                        .map(|v| match v {
                            Value::Int(i) => *i,
                            Value::UInt(u) => *u as i64,
                            other => panic!("an integer list holds {other:?}"),
                        })
                        .collect(),
                )
            }
        }
        other => panic!("no model value for a {other} column"),
    }
}

/// Equal, NaN equal to NaN (a field that is NaN is NaN in both).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (Value::Floats(x), Value::Floats(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
        }
        _ => a == b,
    }
}

/// Checks every field of every read of `path` against its Arrow column; returns the reads.
fn agree(path: &Path) -> usize {
    let file = AnyReader::open(path).unwrap();
    let batches: Vec<RecordBatch> =
        ReadBatches::open([path], Options::default()).unwrap().map(|b| b.unwrap()).collect();
    let mut i = 0;
    for batch in &batches {
        for row in 0..batch.num_rows() {
            let id = file.read_id(i).unwrap();
            assert_eq!(value_at(batch.column(0), row), Value::Text(id.clone()));
            let fields = file.fields(i).unwrap();
            // read_id and filename, then every field in the model's order.
            assert_eq!(batch.num_columns(), fields.len() + 2, "{}", path.display());
            for (c, (name, v)) in fields.iter().enumerate() {
                let field = batch.schema_ref().field(c + 2).clone();
                assert_eq!(field.name(), &**name, "{}", path.display());
                let got = value_at(batch.column(c + 2), row);
                assert!(
                    same(&got, v),
                    "{} read {id}: {name} is {got:?} in Arrow, {v:?} in the model",
                    path.display()
                );
                assert!(
                    field.is_nullable() || !matches!(v, Value::None),
                    "{}: {name} is missing but its column is not nullable",
                    path.display()
                );
            }
            i += 1;
        }
    }
    assert_eq!(i, file.len(), "{}", path.display());
    i
}

/// The files of `dir` (and its subdirectories) ending in `ext`.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p, ext));
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[svb_testdata::data_test]
fn arrow_columns_are_the_models_fields_in_every_format(data: &Path) {
    let mut checked = Vec::new();
    for (dir, ext) in [("pod5", "pod5"), ("fast5", "pod5"), ("blow5", "blow5")] {
        for f in files(&data.join(dir), ext) {
            checked.push((agree(&f), f));
        }
    }
    // FAST5: every file that opens (the error cases of slow5tools' tests do not).
    for f in files(&data.join("fast5"), "fast5")
        .into_iter()
        .chain(files(&data.join("fast5_vbz"), "fast5"))
    {
        let opens = AnyReader::open(&f).is_ok_and(|r| (0..r.len()).all(|i| r.fields(i).is_ok()));
        if opens {
            checked.push((agree(&f), f));
        }
    }
    let formats =
        |ext: &str| checked.iter().filter(|(_, f)| f.extension().is_some_and(|x| x == ext)).count();
    assert!(
        formats("pod5") >= 4 && formats("blow5") >= 10 && formats("fast5") >= 20,
        "{checked:?}"
    );
    assert!(checked.iter().map(|(n, _)| n).sum::<usize>() > 100);
}
