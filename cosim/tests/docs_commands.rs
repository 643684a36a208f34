//! The documents' commands are a test (issue 29, item 11): every `gpusim …`
//! command in a code block (fenced or indented) of `README.md` and
//! `docs/*.md` runs with the release binary, so a renamed flag, a renamed
//! subcommand or a moved file fails here instead of misleading a reader.
//!
//! A block is run unless the HTML comment on the last non-blank line before
//! it says otherwise (docs/README.md, "Commands in the documents"):
//! * `<!-- not run: REASON -->` — skipped (placeholders, a cluster, a shell
//!   loop's variables);
//! * `<!-- parse only: REASON -->` — too long for CI: each command's options
//!   are checked by the argument parser (`--help` appended: clap rejects an
//!   unknown flag or value before it honours `--help`) and every repository
//!   path it names must exist, but it is not run.
//!
//! Each block runs in a directory of its own under the test's temporary
//! directory, with a link to every entry of the repository root, so the
//! documented relative paths resolve and the commands' outputs (`-o`,
//! `--vcd`, `> file`) land there; `/tmp/` in a command is that directory's
//! `tmp/`. Commands run through `bash` (redirections, `<( … )`) with
//! `gpusim` on `PATH`, one after another (a block's later commands may read
//! an earlier one's output), each bounded by [`LIMIT_S`] seconds.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Wall-clock bound of one command (the longest documented run, a 36-job
/// sweep, takes ~20 s on a loaded 2-vCPU machine).
const LIMIT_S: u64 = 120;

/// How a block is treated.
#[derive(Clone, Debug, PartialEq)]
enum Mode {
    Run,
    ParseOnly(String),
    NotRun(String),
}

/// One `gpusim` command of a document.
#[derive(Clone, Debug)]
struct DocCommand {
    /// `file:line` of the command's first line.
    at: String,
    /// The command as written, continuation lines joined.
    text: String,
}

/// A code block that holds at least one `gpusim` command.
#[derive(Debug)]
struct Block {
    at: String,
    mode: Mode,
    commands: Vec<DocCommand>,
}

/// The marker on `line`, if it is one; an error for a marker without reason.
fn marker(line: &str) -> Result<Option<Mode>, String> {
    let t = line.trim();
    let Some(body) = t.strip_prefix("<!--").and_then(|b| b.strip_suffix("-->")) else {
        return Ok(None);
    };
    let body = body.trim();
    for (key, make) in [
        ("not run:", Mode::NotRun as fn(String) -> Mode),
        ("parse only:", Mode::ParseOnly as fn(String) -> Mode),
    ] {
        if let Some(reason) = body.strip_prefix(key) {
            let reason = reason.trim();
            if reason.is_empty() {
                return Err(format!("`{t}` gives no reason"));
            }
            return Ok(Some(make(reason.to_string())));
        }
    }
    Ok(None)
}

/// `text` with the documented ways of calling the binary written as `gpusim`.
fn normalise(text: &str) -> String {
    text.replace("cargo run --release -p cosim --bin gpusim --", "gpusim")
        .replace("./target/release/gpusim", "gpusim")
        .replace("target/release/gpusim", "gpusim")
}

/// Whether `text` calls `gpusim` with a subcommand (`gpusim run …`,
/// `diff <(gpusim disasm …)`), as opposed to prose or output naming it.
fn calls_gpusim(text: &str) -> bool {
    // A shell comment may name gpusim in prose.
    let code = match text.find(" #") {
        Some(at) => &text[..at],
        None if text.starts_with('#') => "",
        None => text,
    };
    let words: Vec<&str> = code
        .split(|c: char| c.is_whitespace() || c == '(' || c == ';' || c == '|')
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        w[0] == "gpusim"
            && w[1]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase() || c == '-')
    })
}

/// The `gpusim` commands of one block's lines (`first` is the line number
/// of `lines[0]`): with `$ ` prompts only the prompted lines are commands
/// (the rest is output), otherwise every line that calls `gpusim`.
fn commands_of(file: &str, first: usize, lines: &[&str]) -> Vec<DocCommand> {
    let prompted = lines.iter().any(|l| l.trim_start().starts_with("$ "));
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut text = lines[i].trim().to_string();
        while text.ends_with('\\') && i + 1 < lines.len() {
            text.pop();
            i += 1;
            text.push(' ');
            text.push_str(lines[i].trim());
        }
        i += 1;
        let text = if prompted {
            match text.strip_prefix("$ ") {
                Some(t) => t.to_string(),
                None => continue,
            }
        } else {
            text
        };
        let text = normalise(&text);
        if calls_gpusim(&text) {
            out.push(DocCommand {
                at: format!("{file}:{}", first + start),
                text,
            });
        }
    }
    out
}

/// The blocks of a Markdown document that hold `gpusim` commands.
fn blocks(file: &str, markdown: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let fence = line.trim_start();
        let (body, next) = if fence.starts_with("```") || fence.starts_with("~~~") {
            let close = &fence[..3];
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_start().starts_with(close))
                .unwrap_or(lines.len());
            ((i + 1, end), end + 1)
        } else if line.starts_with("    ") && (i == 0 || lines[i - 1].trim().is_empty()) {
            let end = (i..lines.len())
                .find(|&j| !lines[j].starts_with("    ") && !lines[j].trim().is_empty())
                .unwrap_or(lines.len());
            ((i, end), end)
        } else {
            i += 1;
            continue;
        };
        let commands = commands_of(file, body.0 + 1, &lines[body.0..body.1]);
        if !commands.is_empty() {
            let before = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
            let mode = match before {
                Some(l) => marker(l).map_err(|e| format!("{file}:{i}: {e}"))?,
                None => None,
            };
            out.push(Block {
                at: format!("{file}:{}", i + 1),
                mode: mode.unwrap_or(Mode::Run),
                commands,
            });
        }
        i = next;
    }
    Ok(out)
}

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cosim sits in the workspace")
        .to_path_buf()
}

/// A directory for one block: links to the root's entries, an empty `tmp/`.
fn block_dir(root: &Path, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs_commands")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tmp")).expect("block directory");
    for entry in std::fs::read_dir(root).expect("repository root").flatten() {
        let name = entry.file_name();
        if name == "target" || name == ".git" || name == "tmp" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), dir.join(&name)).expect("link");
    }
    dir
}

/// A directory holding a `gpusim` link to the binary under test, made once
/// per process: the tests run in parallel, and one remaking the link while
/// another's command looks for `gpusim` made that command "not found".
fn bin_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs_commands_bin");
        std::fs::create_dir_all(&dir).expect("bin directory");
        let link = dir.join("gpusim");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gpusim"), &link).expect("gpusim link");
        dir
    })
    .clone()
}

/// The words of `text` that name repository paths (start with a top-level
/// entry of the root and a `/`, no shell variable or glob).
fn repo_paths(root: &Path, text: &str) -> Vec<String> {
    let tops: Vec<String> = std::fs::read_dir(root)
        .expect("repository root")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "target" && n != "tmp")
        .collect();
    text.split_whitespace()
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"'))
        .filter(|w| !w.contains('$') && !w.contains('*'))
        .filter(|w| {
            w.split_once('/')
                .is_some_and(|(top, _)| tops.iter().any(|t| t == top))
        })
        .map(str::to_string)
        .collect()
}

/// The command for a parse-only check: redirections, pipes and comments cut
/// off, `--help` appended.
fn parse_only(text: &str) -> String {
    let mut cut = text.len();
    for stop in [" #", " >", " |", " 2>", " &&", ";"] {
        if let Some(at) = text.find(stop) {
            cut = cut.min(at);
        }
    }
    format!("{} --help", text[..cut].trim_end())
}

/// Runs one command in `dir`; `Err` says what went wrong. The command runs
/// in a process group of its own, killed whole when it overruns (a command
/// that starts others, `cargo …`, must not leave them behind); its output
/// goes to files in `dir`, so a chatty command cannot fill a pipe.
fn run(dir: &Path, bin: &Path, text: &str) -> Result<(), String> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    let tmp = format!("{}/tmp/", dir.display());
    let script = format!("set -o pipefail\n{}\n", text.replace("/tmp/", &tmp));
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let err_path = dir.join(format!(".command-{n}.stderr"));
    let file = |p: PathBuf| File::create(&p).map_err(|e| format!("{}: {e}", p.display()));
    let mut child = Command::new("bash")
        .args(["-c", &script])
        .current_dir(dir)
        .env("PATH", path)
        .stdout(file(dir.join(format!(".command-{n}.stdout")))?)
        .stderr(file(err_path.clone())?)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("could not start bash: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > Duration::from_secs(LIMIT_S) {
            // SAFETY: kill(2) on the child's own process group.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            return Err(format!("took longer than {LIMIT_S} s"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.success() {
        return Ok(());
    }
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let tail: Vec<&str> = stderr.lines().rev().take(8).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    Err(format!(
        "exit {:?}; stderr:\n      {}",
        status.code(),
        tail.join("\n      ")
    ))
}

/// Runs or checks every command of `blocks`; the failures, and how many
/// commands ran, were parse-checked and were skipped.
fn check(root: &Path, blocks: &[Block]) -> (Vec<String>, [usize; 3]) {
    let bin = bin_dir();
    let mut failures = Vec::new();
    let mut counts = [0; 3];
    for block in blocks {
        let name = block.at.replace(['/', ':', '.'], "_");
        match &block.mode {
            Mode::NotRun(reason) => {
                counts[2] += block.commands.len();
                eprintln!("{}: not run ({reason})", block.at);
            }
            Mode::ParseOnly(_) => {
                let dir = block_dir(root, &name);
                for c in &block.commands {
                    counts[1] += 1;
                    for p in repo_paths(root, &c.text) {
                        if !root.join(&p).exists() {
                            failures.push(format!(
                                "{}: `{}` names {p}, which does not exist",
                                c.at, c.text
                            ));
                        }
                    }
                    if let Err(e) = run(&dir, &bin, &parse_only(&c.text)) {
                        failures.push(format!("{}: `{}` (options only): {e}", c.at, c.text));
                    }
                }
            }
            Mode::Run => {
                let dir = block_dir(root, &name);
                for c in &block.commands {
                    counts[0] += 1;
                    let t = Instant::now();
                    let r = run(&dir, &bin, &c.text);
                    eprintln!("{}: {:.1} s  {}", c.at, t.elapsed().as_secs_f64(), c.text);
                    if let Err(e) = r {
                        failures.push(format!("{}: `{}`: {e}", c.at, c.text));
                    }
                }
            }
        }
    }
    (failures, counts)
}

/// README.md and docs/*.md, sorted.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

#[test]
fn every_documented_gpusim_command_runs() {
    let root = root();
    let mut all = Vec::new();
    for doc in documents(&root) {
        let rel = doc
            .strip_prefix(&root)
            .expect("under the root")
            .display()
            .to_string();
        let text = std::fs::read_to_string(&doc).expect("document");
        all.extend(blocks(&rel, &text).unwrap_or_else(|e| panic!("{e}")));
    }
    let (failures, [ran, parsed, skipped]) = check(&root, &all);
    eprintln!("{ran} commands ran, {parsed} had their options checked, {skipped} not run");
    assert!(
        failures.is_empty(),
        "{} documented command(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The extraction itself is live: the documents hold this many at least.
    assert!(
        ran >= 15 && parsed >= 5,
        "only {ran} run and {parsed} parse-only commands found"
    );
}

/// The reader and runner catch what they exist for: a renamed flag fails a
/// run block and a parse-only block, a moved file fails a parse-only block,
/// prompts separate commands from output, continuations join, markers need
/// a reason, and prose naming gpusim is not a command.
#[test]
fn a_renamed_flag_or_a_moved_file_fails() {
    let doc = "\
Text.

    gpusim disasm --arch gfx1030 --hex \"BF810000\"
    s_endpgm

<!-- parse only: long -->
```
gpusim bench --model cycle --presett 1cu
gpusim run workloads/corpus/gfx1030/nope.yaml --model cycle
gpusim run workloads/corpus/gfx1030/saxpy.yaml \\
    --model cycle --stats text > out.txt   # a comment
```

```
$ gpusim disasm --arch gfx1030 --hex \"BF810000\" --wave65
gpusim: error: the output
```

<!-- not run: needs Slurm -->
```
gpusim sweep S.yaml --slurm
```

```
cargo test -p cosim   # gpusim (wave32) is not a call
```
";
    let found = blocks("t.md", doc).expect("markers have reasons");
    assert_eq!(found.len(), 4, "{found:#?}");
    assert_eq!(found[0].mode, Mode::Run);
    assert_eq!(found[0].commands.len(), 1);
    assert_eq!(found[0].at, "t.md:3");
    assert!(matches!(found[1].mode, Mode::ParseOnly(_)));
    assert_eq!(found[1].commands.len(), 3);
    assert_eq!(found[1].commands[2].at, "t.md:10");
    assert!(found[1].commands[2]
        .text
        .contains("--model cycle --stats text"));
    assert_eq!(
        found[2].commands.len(),
        1,
        "the output line is not a command"
    );
    assert!(matches!(found[3].mode, Mode::NotRun(_)));
    let (failures, counts) = check(&root(), &found);
    assert_eq!(counts, [2, 3, 1]);
    let joined = failures.join("\n");
    assert_eq!(failures.len(), 3, "{joined}");
    assert!(joined.contains("--presett"), "{joined}");
    assert!(
        joined.contains("nope.yaml, which does not exist"),
        "{joined}"
    );
    assert!(joined.contains("--wave65"), "{joined}");
    assert!(blocks("t.md", "<!-- not run: -->\n\n    gpusim run x\n").is_err());
}
