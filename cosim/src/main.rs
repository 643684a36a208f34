//! The `gpusim` command-line tool: a thin wrapper over `cosim::cli`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cosim::cli::Cli::parse();
    match cosim::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(cosim::cli::CliError::Diagnostic(d)) => {
            eprintln!("{d}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("gpusim: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
