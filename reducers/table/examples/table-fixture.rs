//! Writes the fixture table: `table-fixture FORMAT PATH ROWS [GROUP_ROWS]`, FORMAT one
//! of parquet, arrow, arrow-stream, csv (for the benchmark and by hand).

use briefly_table::fixtures;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [format, path, rows, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: table-fixture parquet|arrow|arrow-stream|csv PATH ROWS [GROUP_ROWS]".into(),
        );
    };
    let rows: u64 = rows.parse()?;
    let path = Path::new(path);
    match format.as_str() {
        "parquet" => {
            let group = rest.first().map_or(Ok(100_000), |g| g.parse())?;
            fixtures::write_parquet(path, rows, group)?
        }
        "arrow" => fixtures::write_arrow(path, rows)?,
        "arrow-stream" => fixtures::write_arrow_stream(path, rows)?,
        "csv" => fixtures::write_csv(path, rows)?,
        other => return Err(format!("unknown format {other}").into()),
    }
    Ok(())
}
