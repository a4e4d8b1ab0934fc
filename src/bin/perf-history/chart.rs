//! Charts of instruction counts over commits, as SVG (plotters).

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordusize;
use plotters::prelude::*;

use crate::history::Row;

/// The gate's tolerance over the baseline, as `tests/library/perf_gate.rs` has it.
const GATE: f64 = 1.03;

/// What one chart shows: the commits in order, and per commit its count
/// and its baseline for the bench.
pub struct Series<'a> {
    /// The bench.
    pub bench: String,
    /// Short hashes of the commits, oldest first.
    pub commits: &'a [String],
    /// Per commit, the instructions measured, if the bench ran.
    pub instructions: Vec<Option<u64>>,
    /// Per commit, its committed baseline, if it has one.
    pub baseline: Vec<Option<u64>>,
}

/// The series of every bench in `rows`, on `commits` (short hashes, in
/// order).
pub fn series<'a>(rows: &[Row], commits: &'a [String]) -> Vec<Series<'a>> {
    let index: BTreeMap<&str, usize> = commits
        .iter()
        .enumerate()
        .map(|(i, commit)| (commit.as_str(), i))
        .collect();
    let mut by_bench: BTreeMap<&str, Series<'a>> = BTreeMap::new();
    for row in rows.iter().filter(|row| !row.bench.is_empty()) {
        let Some(&at) = index.get(&row.commit[..row.commit.len().min(7)]) else {
            continue;
        };
        let series = by_bench.entry(&row.bench).or_insert_with(|| Series {
            bench: row.bench.clone(),
            commits,
            instructions: vec![None; commits.len()],
            baseline: vec![None; commits.len()],
        });
        series.instructions[at] = row.instructions;
        series.baseline[at] = row.baseline;
    }
    by_bench.into_values().collect()
}

/// A count to three significant digits: `4.66 M`, `221 k`.
fn short_count(value: f64) -> String {
    let (scaled, unit) = match value {
        v if v >= 1e9 => (v / 1e9, " G"),
        v if v >= 1e6 => (v / 1e6, " M"),
        v if v >= 1e3 => (v / 1e3, " k"),
        v => (v, ""),
    };
    let decimals = match scaled {
        s if s >= 100.0 => 0,
        s if s >= 10.0 => 1,
        _ => 2,
    };
    format!("{scaled:.decimals$}{unit}")
}

/// Draws one bench's chart on `area`: on a log scale when the counts span
/// a factor of three or more, else on a linear one.
fn draw(area: &DrawingArea<SVGBackend<'_>, Shift>, series: &Series<'_>) -> Result<(), String> {
    let error = |e: DrawingAreaErrorKind<_>| format!("drawing {}: {e}", series.bench);
    let values: Vec<f64> = series
        .instructions
        .iter()
        .chain(&series.baseline)
        .flatten()
        .map(|&v| v as f64)
        .collect();
    if values.is_empty() {
        return Ok(());
    }
    let (least, most) = values.iter().fold((f64::MAX, f64::MIN), |(low, high), &v| {
        (low.min(v), high.max(v))
    });
    let n = series.commits.len();
    let builder = |scale: &str| {
        let mut builder = ChartBuilder::on(area);
        builder
            .caption(
                format!("{} (instructions{scale})", series.bench),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(70);
        builder
    };
    if most / least >= 3.0 {
        // From a power of ten, so that the scale labels every decade the
        // counts span.
        let low = 10f64.powf((least / 1.1).log10().floor());
        let high = most * GATE * 1.3;
        let chart = builder(", log scale")
            .build_cartesian_2d((0..n).into_segmented(), (low..high).log_scale())
            .map_err(error)?;
        let height = move |y: f64| (y / low).ln() / (high / low).ln();
        draw_on(chart, series, height)
    } else {
        let low = least * 0.9;
        let high = most * GATE * 1.08;
        let chart = builder("")
            .build_cartesian_2d((0..n).into_segmented(), low..high)
            .map_err(error)?;
        let height = move |y: f64| (y - low) / (high - low);
        draw_on(chart, series, height)
    }
}

/// The most commits named on a chart's x axis (a short hash is about 50
/// pixels wide in the axis's font; a chart is 900 wide).
const MAX_COMMIT_LABELS: usize = 13;

/// Draws `series` on `chart`, whose y axis puts a count at `height` (0 at
/// the bottom, 1 at the top).
fn draw_on<'a, Y>(
    mut chart: ChartContext<'a, SVGBackend<'a>, Cartesian2d<SegmentedCoord<RangedCoordusize>, Y>>,
    series: &Series<'_>,
    height: impl Fn(f64) -> f64,
) -> Result<(), String>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let error = |e: DrawingAreaErrorKind<_>| format!("drawing {}: {e}", series.bench);
    let n = series.commits.len();
    let commits = series.commits;
    // Every commit is a point; at most MAX_COMMIT_LABELS of them are named,
    // counting back from the latest, so that the names never overlap.
    let every = n.div_ceil(MAX_COMMIT_LABELS).max(1);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(4)
        .x_labels(n)
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) if *i < n && (n - 1 - *i).is_multiple_of(every) => {
                commits[*i].clone()
            }
            _ => String::new(),
        })
        .x_label_style(("monospace", 11))
        .y_labels(12)
        .y_label_formatter(&|y| short_count(*y))
        .y_desc("instructions")
        .x_desc("commit (oldest left)")
        .draw()
        .map_err(error)?;
    let segment = |i: usize, value: f64| {
        vec![
            (SegmentValue::Exact(i), value),
            (SegmentValue::Exact(i + 1), value),
        ]
    };
    let baselines: Vec<(usize, f64)> = series
        .baseline
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| (i, b as f64)))
        .collect();
    chart
        .draw_series(
            baselines
                .iter()
                .map(|&(i, b)| PathElement::new(segment(i, b), BLUE.stroke_width(2))),
        )
        .map_err(error)?
        .label("committed baseline")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    for &(i, b) in &baselines {
        chart
            .draw_series(DashedLineSeries::new(
                segment(i, b * GATE),
                4,
                3,
                RED.stroke_width(1),
            ))
            .map_err(error)?;
    }
    chart
        .draw_series(std::iter::once(PathElement::new(Vec::new(), RED)))
        .map_err(error)?
        .label("gate: baseline + 3%")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    let points: Vec<(SegmentValue<usize>, f64)> = series
        .instructions
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.map(|v| (SegmentValue::CenterOf(i), v as f64)))
        .collect();
    chart
        .draw_series(LineSeries::new(
            points.iter().cloned(),
            BLACK.stroke_width(2),
        ))
        .map_err(error)?
        .label("measured")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    chart
        .draw_series(
            points
                .iter()
                .map(|(x, y)| Circle::new((x.clone(), *y), 3, BLACK.filled())),
        )
        .map_err(error)?;
    // The count where it first appears and wherever it moves by more than
    // one percent.
    let changed = points
        .iter()
        .enumerate()
        .filter(|&(i, (_, y))| i == 0 || (y / points[i - 1].1 - 1.0).abs() > 0.01);
    chart
        .draw_series(changed.map(|(_, (x, y))| {
            EmptyElement::at((x.clone(), *y))
                + Text::new(short_count(*y), (4, -16), ("sans-serif", 12).into_font())
        }))
        .map_err(error)?;
    // The legend in the right-hand corner the latest counts leave free.
    let latest: Vec<f64> = points
        .iter()
        .rev()
        .take(n.div_ceil(3))
        .map(|(_, y)| height(*y))
        .collect();
    let latest_height = latest.iter().sum::<f64>() / latest.len().max(1) as f64;
    let corner = if latest_height > 0.5 {
        SeriesLabelPosition::LowerRight
    } else {
        SeriesLabelPosition::UpperRight
    };
    chart
        .configure_series_labels()
        .position(corner)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(error)?;
    Ok(())
}

/// Writes one chart: `series` on a single SVG of `size` pixels.
pub fn write_one(path: &Path, series: &Series<'_>, size: (u32, u32)) -> Result<(), String> {
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    draw(&root, series)?;
    root.present().map_err(|e| e.to_string())
}

/// Writes every bench's chart on one SVG, `columns` charts a row.
pub fn write_grid(
    path: &Path,
    all: &[Series<'_>],
    columns: usize,
    panel: (u32, u32),
) -> Result<(), String> {
    let rows = all.len().div_ceil(columns).max(1);
    let size = (panel.0 * columns as u32, panel.1 * rows as u32);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    for (area, series) in root.split_evenly((rows, columns)).iter().zip(all) {
        draw(area, series)?;
    }
    root.present().map_err(|e| e.to_string())
}
