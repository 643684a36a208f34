//! The clocked GPU driven by `sw::driver` exactly as the golden GPU is: a
//! hand-assembled kernel in a code object v5 is loaded, dispatched through a
//! channel (front end → dispatcher → CU → completion), and its stores are
//! read back.

use arch::code_object::{
    AddressSpace, CodeObjectWriter, KernelArg, KernelDescriptor, KernelMetadata, NewKernel,
    ValueKind,
};
use arch::device::Device;
use arch::isa::{assemble, Isa, Target};
use hw::{ClockedGpu, GpuConfig};
use sw::driver::{Arg, Driver, LaunchDims};

/// Stores each work-item's local id to `out[stride / 4 × global id]` through a
/// buffer resource built from the kernarg pointer (no VALU needed).
fn store_ids(stride: u32) -> Vec<u8> {
    let text = format!(
        "s_load_dwordx2 s[8:9], s[0:1], 0x0
s_lshl_b32 s10, s2, {}
s_waitcnt lgkmcnt(0)
s_add_u32 s4, s8, s10
s_addc_u32 s5, s9, 0
s_and_b32 s5, s5, 0xffff
s_or_b32 s5, s5, {}
s_mov_b32 s6, -1
s_mov_b32 s7, 0x1016fac
buffer_store_dword v0, v0, s[4:7], 0 idxen
s_endpgm",
        (64 * stride).trailing_zeros(),
        stride << 16
    );
    let code = assemble(Target::GFX1030_W32, &text).expect("assembles");
    let mut descriptor = KernelDescriptor::default();
    descriptor.kernel_code_properties.enable_wavefront_size32 = true;
    descriptor
        .kernel_code_properties
        .enable_sgpr_kernarg_segment_ptr = true;
    descriptor.compute_pgm_rsrc2.user_sgpr_count = arbitrary_int::u5::new(2);
    // The workgroup id lands in s2, right after the user SGPRs.
    descriptor.compute_pgm_rsrc2.enable_sgpr_workgroup_id_x = true;
    descriptor.kernarg_size = 8;
    let metadata = KernelMetadata {
        args: vec![KernelArg {
            name: Some("out".into()),
            offset: 0,
            size: 8,
            value_kind: ValueKind::GlobalBuffer,
            address_space: Some(AddressSpace::Global),
            type_name: None,
            access: None,
            actual_access: None,
            pointee_align: None,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe: false,
        }],
        kernarg_segment_size: 8,
        kernarg_segment_align: 8,
        wavefront_size: 32,
        ..KernelMetadata::default()
    };
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    w.add_kernel(NewKernel {
        name: "store_ids".into(),
        code,
        descriptor,
        metadata,
    });
    w.write().expect("code object")
}

fn launch(config: GpuConfig, stride: u32, items: u32) -> (Vec<u32>, hw::stats::GpuStats, u64) {
    let gpu = ClockedGpu::new(config).unwrap();
    let mut driver = Driver::new(gpu).expect("driver initialises the clocked GPU");
    let program = driver.load(&store_ids(stride)).expect("loads");
    let kernel = program.kernel("store_ids").unwrap().clone();
    let out = driver
        .create_buffer(&vec![0xffu8; (items * stride) as usize])
        .unwrap();
    driver
        .launch(
            &kernel,
            LaunchDims::linear(items, 64),
            &[Arg::Buffer(out.address)],
        )
        .expect("runs to completion");
    let bytes = driver.download(out).unwrap();
    let words = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let gpu = driver.into_device();
    (words, gpu.stats(), gpu.now())
}

#[test]
fn driver_runs_a_kernel_on_the_clocked_gpu() {
    let (words, stats, cycles) = launch(GpuConfig::default_config(), 4, 256);
    let expected: Vec<u32> = (0..256).map(|i| i % 64).collect();
    assert_eq!(words, expected);
    assert_eq!(stats.dispatches.len(), 1);
    assert_eq!(stats.dispatches[0].waves, 8);
    assert!(stats.dispatches[0].cycles > 0 && cycles >= stats.dispatches[0].end);
}

#[test]
fn coalescing_one_request_per_line() {
    // 32 lanes × 4 bytes in one 128-byte line: one request per wave; a stride
    // of one line: 32 requests per wave.
    let (dense, s_dense, _) = launch(GpuConfig::one_cu(), 4, 64);
    let (sparse, s_sparse, _) = launch(GpuConfig::one_cu(), 128, 64);
    assert_eq!(dense[..64], (0..64).collect::<Vec<u32>>()[..]);
    assert_eq!(sparse[32], 1);
    assert_eq!(s_dense.cus[0].vmem_requests, 2);
    assert_eq!(s_sparse.cus[0].vmem_requests, 64);
    assert!(s_sparse.dispatches[0].cycles >= s_dense.dispatches[0].cycles);
}

#[test]
fn an_acquire_nothing_can_satisfy_reports_blocked() {
    use arch::command::{Command, SemaphoreCompare};
    use arch::device::{RunStatus, RunUntil};
    let mut config = GpuConfig::one_cu();
    config.watchdog_cycles = 1_000_000;
    let gpu = ClockedGpu::new(config).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let flag = driver.create_buffer(&7u32.to_le_bytes()).unwrap();
    let mut block = sw::driver::CommandBlock::new();
    block.push(Command::SemaphoreAcquire {
        address: flag.address,
        payload: 9,
        compare: SemaphoreCompare::GreaterOrEqual,
    });
    driver.submit(block).unwrap();
    match driver.device_mut().run(RunUntil::Idle).unwrap() {
        RunStatus::Blocked(list) => {
            assert_eq!(list.len(), 1);
            assert_eq!(
                (list[0].address, list[0].payload, list[0].current),
                (flag.address, 9, 7)
            );
        }
        other => panic!("expected Blocked, got {other:?}"),
    }
}

#[test]
fn signals_are_traceable_by_hierarchical_name() {
    let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
    let mut t = traces::Tracer::names();
    traces::Probe::probe(&gpu, "gpu", &mut t);
    t.end_walk();
    let names = t.declared();
    for want in [
        "gpu.cycle",
        "gpu.cu0.simd1.waves",
        "gpu.cu0.simd1.valid",
        "gpu.cu0.sched0.issue_wave",
        "gpu.cu0.wave3.pc",
        "gpu.cu0.wave31.vmcnt",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing");
    }
}
