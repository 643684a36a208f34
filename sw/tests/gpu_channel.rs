//! GPU-owned channels (seed 001, method 400) against the test-double device:
//! what `create_gpu_channel` programs and writes, the CPU-channel block of
//! `launch_creating_work`, channel reuse, and bad input. The "parent kernel"
//! is a closure that follows the device library's protocol in Rust (the real
//! header runs on the golden GPU in `cosim/tests/work_creation.rs`).

#[allow(dead_code)] // shared with tests/driver.rs, which uses all of it
mod fake;

use arch::code_object::{
    CodeObjectWriter, KernelArg, KernelDescriptor, KernelMetadata, NewKernel, ValueKind,
};
use arch::command::{ChannelEntry, Command, SemaphoreCompare, ENTRY_BYTES};
use arch::isa::Isa;
use arch::mmio::{self, wrap};
use fake::{FakeDevice, Memory};
use sw::driver::gpu_channel::{kd, wq};
use sw::driver::{Arg, Driver, DriverError, GpuChannelConfig, LaunchDims};

const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

fn arg(offset: u32, size: u32, kind: ValueKind) -> KernelArg {
    KernelArg {
        name: None,
        type_name: None,
        offset,
        size,
        value_kind: kind,
        address_space: None,
        access: None,
        actual_access: None,
        pointee_align: None,
        is_const: false,
        is_restrict: false,
        is_volatile: false,
        is_pipe: false,
    }
}

fn kernel(name: &str, args: Vec<KernelArg>, size: u32, private: u32) -> NewKernel {
    let mut descriptor = KernelDescriptor::default();
    descriptor.kernel_code_properties.enable_wavefront_size32 = true;
    descriptor.kernarg_size = size;
    descriptor.private_segment_fixed_size = private;
    NewKernel {
        name: name.into(),
        code: S_ENDPGM.to_vec(),
        descriptor,
        metadata: KernelMetadata {
            args,
            kernarg_segment_size: size,
            kernarg_segment_align: 8,
            private_segment_fixed_size: private,
            wavefront_size: 32,
            max_flat_workgroup_size: 1024,
            ..Default::default()
        },
    }
}

/// parent(wq, out), child(out, n) with v5 hidden arguments, and a child with
/// scratch and one with a `__local` argument (both refused as children).
fn program() -> Vec<u8> {
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    w.add_kernel(kernel(
        "parent",
        vec![
            arg(0, 8, ValueKind::GlobalBuffer),
            arg(8, 8, ValueKind::GlobalBuffer),
        ],
        16,
        0,
    ));
    w.add_kernel(kernel(
        "child",
        vec![
            arg(0, 8, ValueKind::GlobalBuffer),
            arg(8, 4, ValueKind::ByValue),
            arg(16, 4, ValueKind::HiddenBlockCountX),
            arg(20, 4, ValueKind::HiddenBlockCountY),
            arg(24, 2, ValueKind::HiddenGroupSizeX),
            arg(26, 2, ValueKind::HiddenGroupSizeY),
            arg(28, 2, ValueKind::HiddenRemainderX),
            arg(40, 2, ValueKind::HiddenGridDims),
        ],
        48,
        0,
    ));
    w.add_kernel(kernel("scratchy", vec![], 0, 16));
    w.add_kernel(kernel(
        "locals",
        vec![arg(0, 4, ValueKind::DynamicSharedPointer)],
        8,
        0,
    ));
    w.write().unwrap()
}

fn u32_at(m: &Memory, a: u64) -> u32 {
    m.u32(a).unwrap()
}

fn u64_at(m: &Memory, a: u64) -> u64 {
    m.u64(a).unwrap()
}

fn put_u32(m: &mut Memory, a: u64, v: u32) {
    m.write(a, &v.to_le_bytes()).unwrap();
}

fn put_u64(m: &mut Memory, a: u64, v: u64) {
    m.write(a, &v.to_le_bytes()).unwrap();
}

/// The device library's protocol, in Rust: `threads` threads each launch one
/// 1-D child (kernel 0) of `grid` items, then the last one finishes.
fn emulate_parent(m: &mut Memory, d: u64, threads: u32, grid: u32) {
    let q = u32_at(m, d + wq::Q);
    let epoch = u32_at(m, d + wq::EPOCH);
    let ring = u64_at(m, d + wq::RING);
    let sems = u64_at(m, d + wq::SEMS);
    let kernels = u64_at(m, d + wq::KERNELS);
    let heap = u64_at(m, d + wq::HEAP);
    let set_entry = |m: &mut Memory, e: u32, block: u64, len: u16| {
        let bits = ChannelEntry::new(block, len).unwrap().to_bits();
        put_u64(m, ring + 8 * u64::from(e % q), bits);
    };
    for _ in 0..threads {
        // Kernarg from the template, geometry filled in.
        let top = u32_at(m, d + wq::HEAP_TOP);
        let size = u32_at(m, kernels + kd::SIZE);
        let template = u64_at(m, kernels + kd::TEMPLATE);
        let ka = heap + u64::from(top);
        let mut bytes = vec![0u8; size as usize];
        m.read(template, &mut bytes).unwrap();
        m.write(ka, &bytes).unwrap();
        let off = |m: &Memory, o| u32_at(m, kernels + o) as i32;
        put_u32(m, ka + off(m, kd::BLOCK_COUNT) as u64, grid / 32);
        m.write(ka + off(m, kd::GROUP_SIZE) as u64, &32u16.to_le_bytes())
            .unwrap();
        // The DISPATCH block right after it.
        let block = ka + 256;
        let mut dwords = Vec::new();
        Command::Dispatch(arch::command::DispatchPacket {
            dimensions: 1,
            workgroup_size: [32, 1, 1],
            grid_size: [grid, 1, 1],
            kernel_object: u64_at(m, kernels + kd::OBJECT),
            kernarg_address: ka,
            ..Default::default()
        })
        .write(&mut dwords);
        let b: Vec<u8> = dwords.iter().flat_map(|w| w.to_le_bytes()).collect();
        m.write(block, &b).unwrap();
        put_u32(m, d + wq::HEAP_TOP, top + 512);
        // Reserve 2 entries, point, publish.
        let old = u32_at(m, d + wq::SOFT_PUT);
        put_u32(m, d + wq::SOFT_PUT, old + 2);
        assert!(old + 3 <= u32_at(m, d + wq::SHADOW_PUT));
        set_entry(m, old, block, dwords.len() as u16);
        let trailing = u64_at(m, d + wq::TRAILING) + 32 * u64::from((old + 1) % q);
        set_entry(m, old + 1, trailing, 5);
        put_u32(m, sems + 4 * u64::from((old + q - 1) % q), epoch);
    }
    // gw_finish.
    let t = u32_at(m, d + wq::SOFT_PUT);
    put_u32(m, d + wq::SOFT_PUT, t + 1);
    let terminal = u64_at(m, d + wq::TERMINAL) + 64 * u64::from(t % q);
    set_entry(m, t, terminal, 15);
    put_u32(m, d + wq::FINISHED, 1);
    put_u32(m, d + wq::TERMINAL_ENTRY, t);
    put_u32(m, sems + 4 * u64::from((t + q - 1) % q), epoch);
}

fn setup(
    g0: u32,
    q: u32,
) -> (
    Driver<FakeDevice>,
    sw::driver::GpuChannel,
    sw::driver::Program,
) {
    let mut d = Driver::new(FakeDevice::new(Isa::Gfx1030)).unwrap();
    let p = d.load(&program()).unwrap();
    let child = p.kernel("child").unwrap().clone();
    let config = GpuChannelConfig {
        entries: q,
        first_entry: g0,
        heap_bytes: 1 << 16,
        ..GpuChannelConfig::default()
    };
    let ch = d.create_gpu_channel(config, &[&child]).unwrap();
    (d, ch, p)
}

#[test]
fn create_programs_gp_get_g0_and_gp_put_wrap_g0_minus_1_while_disabled() {
    let (d, ch, p) = setup(3, 8);
    let dev = d.device();
    let reg = |r| mmio::channel_reg(1, r);
    let writes: Vec<(u32, u32)> = dev
        .mmio_writes
        .iter()
        .copied()
        .filter(|&(o, _)| mmio::split_channel_reg(o).map(|x| x.0) == Some(1))
        .collect();
    let at = |r, v| writes.iter().position(|&w| w == (reg(r), v)).unwrap();
    assert!(at(mmio::CH_CONTROL, 0) < at(mmio::CH_GP_GET, 3));
    assert!(at(mmio::CH_GP_PUT, wrap(2, 8)) < at(mmio::CH_CONTROL, 1));
    assert_eq!(dev.channels[1].gp_put, 2);
    assert_eq!(dev.channels[1].size, 8);
    let m = &dev.memory;
    let desc = ch.queue_address();
    assert_eq!(u64_at(m, desc + wq::RING), ch.ring().address);
    assert_eq!(u64_at(m, desc + wq::X), ch.x_address());
    assert_eq!(u32_at(m, ch.x_address()), 0);
    assert_eq!(u32_at(m, ch.y_address()), 0);
    assert_eq!(u32_at(m, desc + wq::Q), 8);
    assert_eq!(u32_at(m, desc + wq::KERNEL_COUNT), 1);
    // entry[g0] → [acquire X >= 1, acquire sem[g0] >= 1].
    let entry = ChannelEntry::from_bits(u64_at(m, ch.ring().address + 3 * ENTRY_BYTES)).unwrap();
    let dwords: Vec<u32> = (0..u64::from(entry.length_dwords))
        .map(|i| u32_at(m, u64::from(entry.address) + 4 * i))
        .collect();
    let (a, used) = Command::read(&dwords).unwrap();
    let (b, _) = Command::read(&dwords[used..]).unwrap();
    let ge = SemaphoreCompare::GreaterOrEqual;
    assert_eq!(
        (a, b),
        (
            Command::SemaphoreAcquire {
                address: ch.x_address(),
                payload: 1,
                compare: ge
            },
            Command::SemaphoreAcquire {
                address: ch.semaphores().address + 12,
                payload: 1,
                compare: ge
            }
        )
    );
    // The child table: descriptor, template size and hidden offsets.
    let k = u64_at(m, desc + wq::KERNELS);
    assert_eq!(
        u64_at(m, k + kd::OBJECT),
        p.kernel("child").unwrap().kernel_object
    );
    assert_eq!(u32_at(m, k + kd::SIZE), 48);
    assert_eq!(u32_at(m, k + kd::BLOCK_COUNT), 16);
    assert_eq!(u32_at(m, k + kd::GROUP_SIZE), 24);
    assert_eq!(u32_at(m, k + kd::REMAINDER), 28);
    assert_eq!(u32_at(m, k + kd::GRID_DIMS), 40);
    // The template is laid out for a 1-D launch of one item (Y counts are 1).
    let t = u64_at(m, k + kd::TEMPLATE);
    assert_eq!(u32_at(m, t + 20), 1);
    assert_eq!(u32_at(m, t + 40) & 0xffff, 1);
}

#[test]
fn a_launch_submits_launch_wfi_release_x_acquire_y_and_reuses_the_channel() {
    let (mut d, mut ch, p) = setup(0, 16);
    let desc = ch.queue_address();
    let cpu_ring = d.ring().address;
    let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen_in = seen.clone();
    let mut launches = 0u64;
    d.device_mut().kernel = Some(Box::new(move |packet, m| {
        // Only the parent (its first kernarg is the descriptor) creates work.
        if m.u64(packet.kernarg_address).ok() == Some(desc) {
            // The CPU channel's block, while it is still mapped.
            let entry = ChannelEntry::from_bits(u64_at(m, cpu_ring + 8 * launches)).unwrap();
            launches += 1;
            let dwords: Vec<u32> = (0..u64::from(entry.length_dwords))
                .map(|i| u32_at(m, u64::from(entry.address) + 4 * i))
                .collect();
            let mut at = 0;
            while at < dwords.len() {
                let (c, used) = Command::read(&dwords[at..]).unwrap();
                seen_in.borrow_mut().push(c);
                at += used;
            }
            emulate_parent(m, desc, 3, 64);
        }
        Ok(())
    }));
    let parent = p.kernel("parent").unwrap().clone();
    let args = [Arg::Buffer(0x1234)];
    let r = d
        .launch_creating_work(&mut ch, &parent, LaunchDims::linear(32, 32), &args)
        .unwrap();
    assert_eq!(
        (r.epoch, r.g0, r.terminal_entry, r.terminal_blocks),
        (1, 0, 7, 1)
    );
    assert!(!r.has_errors(), "{}", r.problems());
    let dev = d.device();
    // The parent got the descriptor first, then the caller's arguments.
    let (parent_packet, kernarg) = &dev.dispatches[0];
    assert_eq!(kernarg[..8], desc.to_le_bytes());
    assert_eq!(kernarg[8..16], 0x1234u64.to_le_bytes());
    // The CPU channel's block: [DISPATCH, WFI, release X=1, acquire Y>=1] + fence.
    let commands = seen.borrow().clone();
    assert_eq!(commands.len(), 6, "{commands:?}");
    assert_eq!(commands[0], Command::Dispatch(*parent_packet));
    assert_eq!(commands[1], Command::WaitForIdle);
    assert_eq!(
        commands[2],
        Command::SemaphoreRelease {
            address: ch.x_address(),
            payload: 1
        }
    );
    assert_eq!(
        commands[3],
        Command::SemaphoreAcquire {
            address: ch.y_address(),
            payload: 1,
            compare: SemaphoreCompare::GreaterOrEqual
        }
    );
    // Three children ran, with their geometry in the kernarg.
    assert_eq!(dev.dispatches.len(), 4);
    assert_eq!(dev.dispatches[1].1[16..20], 2u32.to_le_bytes());
    assert_eq!(dev.dispatches[1].1[24..26], 32u16.to_le_bytes());
    // GPU channel entries 0…6 processed; parked in the terminal block at 7.
    let gpu: Vec<u32> = dev
        .processed
        .iter()
        .filter(|p| p.channel == 1)
        .map(|p| p.entry)
        .collect();
    assert_eq!(gpu, (0..7).collect::<Vec<_>>());
    assert_eq!(dev.channels[1].gp_get, 7);

    // Launch 2 reuses the channel: g0 = 7, GP_PUT = wrap(7 − 1) = 6.
    let r2 = d
        .launch_creating_work(&mut ch, &parent, LaunchDims::linear(32, 32), &args)
        .unwrap();
    assert_eq!((r2.epoch, r2.g0, r2.terminal_entry), (2, 7, 14));
    let dev = d.device();
    assert_eq!(dev.channels[1].gp_put, 6);
    assert_eq!(dev.dispatches.len(), 8);
    assert_eq!(u32_at(&dev.memory, ch.y_address()), 2);
    // Launch 2's CPU block releases X = 2 and acquires Y >= 2.
    assert_eq!(
        seen.borrow()[8],
        Command::SemaphoreRelease {
            address: ch.x_address(),
            payload: 2
        }
    );
    assert_eq!(ch.launches(), 2);
}

#[test]
fn bad_gpu_channels_and_children_are_errors() {
    let mut d = Driver::new(FakeDevice::new(Isa::Gfx1030)).unwrap();
    let p = d.load(&program()).unwrap();
    let child = p.kernel("child").unwrap().clone();
    let with = |c: GpuChannelConfig| GpuChannelConfig {
        heap_bytes: 4096,
        ..c
    };
    let base = with(GpuChannelConfig::default());
    let e = d
        .create_gpu_channel(GpuChannelConfig { index: 0, ..base }, &[&child])
        .unwrap_err();
    assert!(e.to_string().contains("driver's own channel"), "{e}");
    let e = d
        .create_gpu_channel(GpuChannelConfig { index: 9, ..base }, &[&child])
        .unwrap_err();
    assert!(
        matches!(e, DriverError::NoChannel { channel: 9, .. }),
        "{e}"
    );
    let e = d
        .create_gpu_channel(GpuChannelConfig { entries: 3, ..base }, &[&child])
        .unwrap_err();
    assert_eq!(e, DriverError::BadRingSize(3));
    let e = d
        .create_gpu_channel(
            GpuChannelConfig {
                first_entry: 256,
                ..base
            },
            &[&child],
        )
        .unwrap_err();
    assert!(e.to_string().contains("first entry 256"), "{e}");
    let scratchy = p.kernel("scratchy").unwrap().clone();
    let e = d.create_gpu_channel(base, &[&scratchy]).unwrap_err();
    assert!(e.to_string().contains("scratch"), "{e}");
    let locals = p.kernel("locals").unwrap().clone();
    let e = d.create_gpu_channel(base, &[&locals]).unwrap_err();
    assert!(
        e.to_string().contains("cannot be passed by GPU threads"),
        "{e}"
    );
    // Nothing leaked from the failed attempts: a good channel still fits.
    let before = d.heap().allocations().count();
    let ch = d.create_gpu_channel(base, &[&child]).unwrap();
    d.destroy_gpu_channel(ch).unwrap();
    assert_eq!(d.heap().allocations().count(), before);
}

#[test]
fn bad_launch_arguments_leave_the_channel_usable() {
    let (mut d, mut ch, p) = setup(0, 16);
    let desc = ch.queue_address();
    d.device_mut().kernel = Some(Box::new(move |packet, m| {
        if m.u64(packet.kernarg_address).ok() == Some(desc) {
            emulate_parent(m, desc, 1, 32);
        }
        Ok(())
    }));
    let parent = p.kernel("parent").unwrap().clone();
    // The parent takes one argument after the queue: none given is an error…
    let e = d
        .launch_creating_work(&mut ch, &parent, LaunchDims::linear(32, 32), &[])
        .unwrap_err();
    assert!(matches!(e, DriverError::ArgCount { .. }), "{e}");
    // … that changed nothing: the next launch is launch 1 and succeeds.
    let r = d
        .launch_creating_work(
            &mut ch,
            &parent,
            LaunchDims::linear(32, 32),
            &[Arg::Buffer(0)],
        )
        .unwrap();
    assert_eq!((r.epoch, r.g0, r.terminal_entry), (1, 0, 3));
}
