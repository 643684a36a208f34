//! `cargo run -p arch-gen` regenerates `hw/arch/src/isa/tables/generated.rs` and
//! `docs/isa-coverage.md` from `hw/arch/isa/*.isa`; `-- --check` only verifies
//! that the committed files are current (exit status 1 if not).

use std::process::ExitCode;

fn main() -> ExitCode {
    let check = std::env::args().skip(1).any(|a| a == "--check");
    let root = arch_gen::repo_root();
    if check {
        return match arch_gen::stale(&root) {
            Ok(stale) if stale.is_empty() => {
                println!("arch-gen: generated files are up to date");
                ExitCode::SUCCESS
            }
            Ok(stale) => {
                for path in stale {
                    eprintln!(
                        "arch-gen: {} is stale; run `cargo run -p arch-gen`",
                        path.display()
                    );
                }
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("arch-gen: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let files = match arch_gen::generate(&root) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("arch-gen: {e}");
            return ExitCode::FAILURE;
        }
    };
    for (rel, text) in files {
        let path = root.join(&rel);
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("arch-gen: cannot create {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("arch-gen: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("arch-gen: wrote {}", rel.display());
    }
    ExitCode::SUCCESS
}
