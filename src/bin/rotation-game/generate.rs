//! `rotation-game gen`: seeded boards as judge input.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;

use crate::exit;
use crate::gen_args::{FOR_GEN, GenArgs};

/// Generate boards as judge input, one case per line, ending with the "0"
/// line. Every mode is deterministic given --seed.
#[derive(Args)]
pub struct GenCommand {
    #[command(flatten)]
    generator: GenArgs,
}

pub fn run(args: GenCommand) -> ExitCode {
    let generator = args.generator.generator(FOR_GEN);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut line = String::with_capacity(48);
    let result = (|| {
        for index in 0..generator.count(args.generator.boards(FOR_GEN)) {
            line.clear();
            generator.board(index).write_judge_line(&mut line);
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        out.write_all(b"0\n")?;
        out.flush()
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => exit::write_failure(&error),
    }
}
