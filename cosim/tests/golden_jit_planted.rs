//! The JIT differential finds a planted bug (issue 28): with
//! `GPUSIM_JIT_PLANT_BUG=1` the JIT's `v_add_nc_u32` flips bit 0 of each
//! lane's sum (`golden::jit::planted_bug`), and the random programs of
//! `golden_jit.rs` (the `fuzz-lockstep` generator) run with the JIT against
//! the interpreter must show differences. Its own test binary: the setting
//! is read once per process and must not reach the other tests.

use arch::isa::Target;
use cosim::fuzz::gen::{alu_rows, Rng};
use cosim::fuzz::Program;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// The program's data buffer after a run (or the error), JIT on or off.
fn run(p: &Program, jit: bool) -> Result<Vec<u8>, String> {
    let elf = p.code_object().expect("program builds");
    let mut config = GoldenConfig::new(arch::isa::Isa::Gfx1030);
    config.jit = jit;
    config.jit_threshold = 1;
    let mut driver = Driver::new(GoldenGpu::new(config).expect("config")).expect("driver");
    (|| {
        let program = driver.load(&elf)?;
        let kernel = program.kernel("fuzz")?.clone();
        let data = driver.create_buffer(&p.data)?;
        let wave = p.target.wave_size();
        driver.launch(
            &kernel,
            LaunchDims::linear(wave, wave),
            &[Arg::Buffer(data.address)],
        )?;
        driver.download(data)
    })()
    .map_err(|e| e.to_string())
}

#[test]
fn a_planted_bug_in_one_compiled_opcode_is_found() {
    std::env::set_var("GPUSIM_JIT_PLANT_BUG", "1");
    assert!(golden::jit::planted_bug());
    let rows = alu_rows(true);
    let mut found = 0;
    let programs = 60;
    for seed in 0..programs {
        let mut rng = Rng::new(0x5eed_0000 + seed);
        let target = if seed % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let p = Program::random(&mut rng, target, &rows, 120);
        if run(&p, true) != run(&p, false) {
            found += 1;
        }
    }
    eprintln!("the planted bug changed {found} of {programs} programs");
    assert!(found > 0, "the differential missed the planted bug");
}
