//! The driver against a test-double device: memory, loading, kernarg bytes,
//! the DISPATCH packet, ring contents, GP_PUT movement and wrap, and errors.

mod fake;

use arch::code_object::{
    CodeObject, CodeObjectWriter, KernelArg, KernelDescriptor, KernelMetadata, NewKernel, ValueKind,
};
use arch::command::{ChannelEntry, Command, DispatchPacket, ENTRY_BYTES};
use arch::device::{Device, DeviceError};
use arch::isa::Isa;
use arch::mmio;
use fake::FakeDevice;
use sw::driver::{
    Arg, ChannelConfig, CommandBlock, Driver, DriverConfig, DriverError, Fence, LaunchDims,
};

const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

fn arg(name: &str, offset: u32, size: u32, kind: ValueKind) -> KernelArg {
    KernelArg {
        name: Some(name.to_string()),
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

fn hidden(offset: u32, size: u32, kind: ValueKind) -> KernelArg {
    KernelArg {
        name: None,
        ..arg("", offset, size, kind)
    }
}

/// A one-kernel code object with the given arguments and segment sizes.
fn code_object(
    isa: Isa,
    args: Vec<KernelArg>,
    kernarg_size: u32,
    static_lds: u32,
    private: u32,
    wave32: bool,
) -> Vec<u8> {
    let mut descriptor = KernelDescriptor::default();
    descriptor.kernel_code_properties.enable_wavefront_size32 = wave32;
    descriptor.kernarg_size = kernarg_size;
    descriptor.group_segment_fixed_size = static_lds;
    descriptor.private_segment_fixed_size = private;
    let metadata = KernelMetadata {
        args,
        kernarg_segment_size: kernarg_size,
        kernarg_segment_align: 8,
        group_segment_fixed_size: static_lds,
        private_segment_fixed_size: private,
        wavefront_size: if wave32 { 32 } else { 64 },
        max_flat_workgroup_size: 1024,
        ..Default::default()
    };
    let mut w = CodeObjectWriter::new(isa);
    w.add_kernel(NewKernel {
        name: "k".into(),
        code: S_ENDPGM.to_vec(),
        descriptor,
        metadata,
    });
    w.write().expect("writer accepts the test kernel")
}

fn driver(isa: Isa) -> Driver<FakeDevice> {
    Driver::new(FakeDevice::new(isa)).expect("driver initialises")
}

#[test]
fn init_programs_the_channel_while_disabled() {
    let cfg = DriverConfig {
        channel: ChannelConfig {
            index: 2,
            entries: 16,
            priority: 7,
        },
        ..DriverConfig::default()
    };
    let d = Driver::with_config(FakeDevice::new(Isa::Gfx1030), cfg).unwrap();
    let ring = d.ring();
    assert_eq!(ring.size, 16 * ENTRY_BYTES);
    let r = |reg| mmio::channel_reg(2, reg);
    assert_eq!(
        d.device().mmio_writes,
        vec![
            (r(mmio::CH_CONTROL), 0),
            (r(mmio::CH_BASE_LO), ring.address as u32),
            (r(mmio::CH_BASE_HI), (ring.address >> 32) as u32),
            (r(mmio::CH_SIZE), 16),
            (r(mmio::CH_PRIORITY), 7),
            (r(mmio::CH_GP_GET), 0),
            (r(mmio::CH_GP_PUT), 0),
            (r(mmio::CH_CONTROL), mmio::CH_CONTROL_ENABLE),
        ]
    );
    assert!(ring.address >= sw::driver::DEFAULT_HEAP_BASE);
    assert_eq!(d.gp_put(), 0);
}

#[test]
fn init_errors() {
    let mut dev = FakeDevice::new(Isa::Gfx1030);
    dev.gpu_id = mmio::GPU_ID_GFX803;
    let e = Driver::new(dev).err().unwrap();
    assert_eq!(
        e.to_string(),
        "device reports GPU_ID 0x803 but claims to execute gfx1030"
    );

    let cfg = |index, entries| DriverConfig {
        channel: ChannelConfig {
            index,
            entries,
            priority: 0,
        },
        ..DriverConfig::default()
    };
    let e = Driver::with_config(FakeDevice::new(Isa::Gfx1030), cfg(4, 8))
        .err()
        .unwrap();
    assert_eq!(
        e,
        DriverError::NoChannel {
            channel: 4,
            count: 4
        }
    );
    let e = Driver::with_config(FakeDevice::new(Isa::Gfx1030), cfg(0, 1))
        .err()
        .unwrap();
    assert_eq!(e, DriverError::BadRingSize(1));
    let e = Driver::with_config(
        FakeDevice::new(Isa::Gfx1030),
        DriverConfig {
            heap_base: 0x1234,
            ..DriverConfig::default()
        },
    )
    .err()
    .unwrap();
    assert!(matches!(e, DriverError::BadHeap { base: 0x1234, .. }));
}

#[test]
fn buffers_are_isolated_by_unmapped_guards() {
    let mut d = driver(Isa::Gfx1030);
    let data: Vec<u8> = (0..100u8).collect();
    let a = d.create_buffer(&data).unwrap();
    let b = d.create_buffer(&[7; 8]).unwrap();
    assert_eq!(d.download(a).unwrap(), data);
    assert_eq!(a.address % 256, 0);
    // One byte past the (dword-rounded) end of `a` is unmapped: a kernel
    // running off the end faults rather than hitting `b`.
    let mut x = [0u8; 1];
    assert!(d.device().read(a.address + 99, &mut x).is_ok());
    assert!(matches!(
        d.device().read(a.address + 100, &mut x),
        Err(DeviceError::Unmapped { .. })
    ));
    assert!(
        b.address >= a.address + 0x2000,
        "a guard page separates buffers"
    );
    d.upload(a, 96, &[1, 2, 3, 4]).unwrap();
    assert_eq!(d.download_range(a, 96, 4).unwrap(), [1, 2, 3, 4]);
    assert_eq!(
        d.upload(a, 98, &[1, 2, 3]),
        Err(DriverError::OutOfBounds {
            address: a.address,
            size: 100,
            offset: 98,
            len: 3
        })
    );
    let before = d.device().memory.mapping_count();
    d.free(a).unwrap();
    assert_eq!(d.device().memory.mapping_count(), before - 1);
    assert_eq!(d.free(a), Err(DriverError::UnknownAllocation(a.address)));
    // The freed space is reused first-fit.
    let c = d.alloc(16, 4).unwrap();
    assert_eq!(c.address, a.address);
}

#[test]
fn loader_keeps_descriptor_and_code_relative_addresses() {
    let mut d = driver(Isa::Gfx1030);
    let elf = code_object(Isa::Gfx1030, vec![], 0, 0, 0, true);
    let co = CodeObject::parse(&elf).unwrap();
    let p = d.load(&elf).unwrap();
    assert_eq!(p.base() % 4096, 0);
    let k = p.kernel("k").unwrap();
    let file = &co.kernels()[0];
    assert_eq!(k.kernel_object % 64, 0);
    assert_eq!(k.entry % 256, 0);
    assert_eq!(
        k.entry as i64 - k.kernel_object as i64,
        file.descriptor.kernel_code_entry_byte_offset
    );
    let mut desc = [0u8; 64];
    d.device().read(k.kernel_object, &mut desc).unwrap();
    assert_eq!(desc, file.descriptor.to_bytes());
    let mut code = [0u8; 4];
    d.device().read(k.entry, &mut code).unwrap();
    assert_eq!(code, S_ENDPGM);
    let e = p.kernel("nope").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no kernel `nope` in the code object (it has: k)"
    );
    d.unload(p).unwrap();
}

#[test]
fn loader_checks_the_processor_and_rejects_garbage() {
    // gfx1030 code cannot run on the legacy GPU (gfx803 code on gfx1030 is
    // translated: see `legacy_kernels_translate_at_first_dispatch_only`).
    let mut legacy = driver(Isa::Gfx803);
    let elf = code_object(Isa::Gfx1030, vec![], 0, 0, 0, true);
    assert_eq!(
        legacy.load(&elf).unwrap_err().to_string(),
        "code object is for gfx1030, but the device is gfx803"
    );
    let mut d = driver(Isa::Gfx1030);
    assert!(matches!(
        d.load(b"not an elf"),
        Err(DriverError::CodeObject(_))
    ));
    // A program header table pointing past the end of the file.
    let mut bad = code_object(Isa::Gfx1030, vec![], 0, 0, 0, true);
    let past_end = (bad.len() as u64 - 8).to_le_bytes();
    bad[0x20..0x28].copy_from_slice(&past_end);
    assert!(matches!(d.load(&bad), Err(DriverError::BadSegment { .. })));
}

#[test]
fn loader_places_every_corpus_object_faithfully() {
    let mut loaded = 0;
    for k in corpus::all() {
        for target in corpus::TARGETS {
            let elf = k.load_prebuilt(target).expect("prebuilt object exists");
            let co = CodeObject::parse(&elf).unwrap();
            let mut d = driver(target.isa);
            let p = d.load(&elf).unwrap();
            let lk = p.kernel(k.name).unwrap();
            let file = co.kernel(k.name).unwrap();
            let mut desc = [0u8; 64];
            d.device().read(lk.kernel_object, &mut desc).unwrap();
            assert_eq!(desc, file.descriptor.to_bytes(), "{} {target:?}", k.name);
            let mut code = vec![0u8; file.code.len()];
            d.device().read(lk.entry, &mut code).unwrap();
            assert_eq!(code, file.code, "{} {target:?}", k.name);
            loaded += 1;
        }
    }
    assert_eq!(loaded, 3 * corpus::all().len());
}

/// A v5-style signature: (global uint* out, uint n, __local float* tmp, float a)
/// followed by hidden arguments at the offsets clang uses.
fn v5_args() -> (Vec<KernelArg>, u32) {
    let mut local = arg("tmp", 12, 4, ValueKind::DynamicSharedPointer);
    local.pointee_align = Some(16);
    let args = vec![
        arg("out", 0, 8, ValueKind::GlobalBuffer),
        arg("n", 8, 4, ValueKind::ByValue),
        local,
        arg("a", 16, 4, ValueKind::ByValue),
        hidden(24, 4, ValueKind::HiddenBlockCountX),
        hidden(28, 4, ValueKind::HiddenBlockCountY),
        hidden(32, 4, ValueKind::HiddenBlockCountZ),
        hidden(36, 2, ValueKind::HiddenGroupSizeX),
        hidden(38, 2, ValueKind::HiddenGroupSizeY),
        hidden(40, 2, ValueKind::HiddenGroupSizeZ),
        hidden(42, 2, ValueKind::HiddenRemainderX),
        hidden(44, 2, ValueKind::HiddenRemainderY),
        hidden(46, 2, ValueKind::HiddenRemainderZ),
        hidden(64, 8, ValueKind::HiddenGlobalOffsetX),
        hidden(72, 8, ValueKind::HiddenGlobalOffsetY),
        hidden(80, 8, ValueKind::HiddenGlobalOffsetZ),
        hidden(88, 2, ValueKind::HiddenGridDims),
        hidden(96, 8, ValueKind::HiddenPrintfBuffer),
        hidden(104, 4, ValueKind::HiddenDynamicLdsSize),
        hidden(112, 8, ValueKind::Other("hidden_future_thing".into())),
    ];
    (args, 280)
}

#[test]
fn dispatch_writes_exact_kernarg_packet_and_ring_entry() {
    let mut d = driver(Isa::Gfx1030);
    let (args, size) = v5_args();
    let elf = code_object(Isa::Gfx1030, args, size, 100, 0, true);
    let p = d.load(&elf).unwrap();
    let k = p.kernel("k").unwrap().clone();
    let out = d.alloc(4096, 256).unwrap();
    // Poison the whole kernarg-to-be region? The driver allocates a fresh,
    // zero-filled one; every byte is asserted below anyway.
    let dims = LaunchDims {
        grid: [1000, 6, 1],
        workgroup: [256, 4, 1],
    };
    let disp = d
        .launch(
            &k,
            dims,
            &[
                Arg::Buffer(out.address),
                Arg::u32(1000),
                Arg::Local(64),
                Arg::f32(1.5),
            ],
        )
        .unwrap();

    let mut want = vec![0u8; 280];
    let put = |w: &mut Vec<u8>, at: usize, b: &[u8]| w[at..at + b.len()].copy_from_slice(b);
    put(&mut want, 0, &out.address.to_le_bytes());
    put(&mut want, 8, &1000u32.to_le_bytes());
    // Static LDS 100, aligned up to the pointee's 16: offset 112.
    put(&mut want, 12, &112u32.to_le_bytes());
    put(&mut want, 16, &1.5f32.to_le_bytes());
    put(&mut want, 24, &3u32.to_le_bytes()); // 1000 / 256 whole groups
    put(&mut want, 28, &1u32.to_le_bytes()); // 6 / 4
    put(&mut want, 32, &1u32.to_le_bytes());
    put(&mut want, 36, &256u16.to_le_bytes());
    put(&mut want, 38, &4u16.to_le_bytes());
    put(&mut want, 40, &1u16.to_le_bytes());
    put(&mut want, 42, &232u16.to_le_bytes()); // 1000 % 256
    put(&mut want, 44, &2u16.to_le_bytes()); // 6 % 4
    put(&mut want, 46, &0u16.to_le_bytes());
    put(&mut want, 88, &2u16.to_le_bytes()); // two dimensions
    put(&mut want, 104, &76u32.to_le_bytes()); // 112 + 64 - 100
    assert_eq!(disp.kernarg.bytes, want);
    assert_eq!(disp.kernarg.local_offsets, vec![112]);

    // The device saw the same bytes at the packet's kernarg address.
    let dev = d.device();
    assert_eq!(dev.dispatches.len(), 1);
    let (packet, seen) = &dev.dispatches[0];
    assert_eq!(seen, &want);
    assert_eq!(
        *packet,
        DispatchPacket {
            dimensions: 2,
            workgroup_size: [256, 4, 1],
            grid_size: [1000, 6, 1],
            private_segment_size: 0,
            group_segment_size: 76,
            kernel_object: k.kernel_object,
            kernarg_address: packet.kernarg_address,
            scratch_address: 0,
            completion_signal: 0,
            subvector_hint: Default::default(),
            shared_vgprs: 0,
        }
    );
    assert_eq!(packet.kernarg_address % 16, 0);
    assert_eq!(disp.packet, *packet);

    // Ring entry 0 points at a block: DISPATCH, WAIT_FOR_IDLE, release fence 1.
    let mut e = [0u8; 8];
    dev.read(d.ring().address, &mut e).unwrap();
    let entry = ChannelEntry::from_bits(u64::from_le_bytes(e)).unwrap();
    assert_eq!(entry.length_dwords, 17 + 1 + 4);
    assert_eq!(dev.processed.len(), 1);
    assert_eq!(dev.processed[0].entry, 0);
    assert_eq!(dev.processed[0].entry_bits, entry.to_bits());
    assert_eq!(
        dev.processed[0].commands,
        vec![
            Command::Dispatch(*packet),
            Command::WaitForIdle,
            Command::SemaphoreRelease {
                address: d.fence_address(),
                payload: 1
            },
        ]
    );
    assert_eq!(disp.fence, Fence(1));
    assert_eq!(d.gp_put(), 1);
    // The kernarg segment and the block were freed after completion:
    // left are the fence word, the ring, the program and `out`.
    assert_eq!(d.heap().allocations().count(), 4);
}

#[test]
fn kernel_sees_its_buffers_through_the_kernarg_pointers() {
    let mut dev = FakeDevice::new(Isa::Gfx803);
    // "Kernel": out[i] = in[i] * 2 + n for the grid, pointers read from kernarg.
    dev.kernel = Some(Box::new(|p, m| {
        let out = m.u64(p.kernarg_address)?;
        let inp = m.u64(p.kernarg_address + 8)?;
        let n = m.u32(p.kernarg_address + 16)?;
        for i in 0..u64::from(p.grid_size[0]) {
            let v = m.u32(inp + 4 * i)?;
            m.write(out + 4 * i, &(v * 2 + n).to_le_bytes())?;
        }
        Ok(())
    }));
    let mut d = Driver::new(dev).unwrap();
    let args = vec![
        arg("out", 0, 8, ValueKind::GlobalBuffer),
        arg("in", 8, 8, ValueKind::GlobalBuffer),
        arg("n", 16, 4, ValueKind::ByValue),
    ];
    let p = d
        .load(&code_object(Isa::Gfx803, args, 20, 0, 0, false))
        .unwrap();
    let k = p.kernel("k").unwrap().clone();
    let input: Vec<u8> = (0..64u32).flat_map(|v| v.to_le_bytes()).collect();
    let inp = d.create_buffer(&input).unwrap();
    let out = d.alloc(256, 4).unwrap();
    d.launch(
        &k,
        LaunchDims::linear(64, 64),
        &[
            Arg::Buffer(out.address),
            Arg::Buffer(inp.address),
            Arg::u32(5),
        ],
    )
    .unwrap();
    let got: Vec<u32> = d
        .download(out)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, (0..64u32).map(|v| v * 2 + 5).collect::<Vec<_>>());

    // A kernel writing one element past `out` hits the guard: a GPU fault
    // whose message the driver keeps.
    d.device_mut().kernel = Some(Box::new(move |_, m| m.write(out.address + 256, &[1])));
    let e = d
        .launch(
            &k,
            LaunchDims::linear(64, 64),
            &[
                Arg::Buffer(out.address),
                Arg::Buffer(inp.address),
                Arg::u32(5),
            ],
        )
        .unwrap_err();
    assert!(matches!(e, DriverError::Device(DeviceError::Fault(_))));
    assert_eq!(
        e.to_string(),
        format!(
            "GPU fault: write of unmapped address {:#x}; cycle 1",
            out.address + 256
        )
    );
}

#[test]
fn gp_put_wraps_and_never_overruns_a_full_ring() {
    let cfg = DriverConfig {
        channel: ChannelConfig {
            index: 1,
            entries: 4,
            priority: 0,
        },
        ..DriverConfig::default()
    };
    let mut dev = FakeDevice::new(Isa::Gfx1030);
    // A slow front end: one entry per run call.
    dev.entries_per_run = Some(1);
    let mut d = Driver::with_config(dev, cfg).unwrap();
    let mut fences = Vec::new();
    for i in 0..10 {
        let mut b = CommandBlock::new();
        b.push(Command::Nop { payload_dwords: i });
        fences.push(d.submit(b).unwrap());
    }
    assert_eq!(fences.last(), Some(&Fence(10)));
    let writes: Vec<_> = d
        .device()
        .gp_put_writes
        .iter()
        .filter(|w| w.0 == 1)
        .copied()
        .collect();
    // The first write is the init's GP_PUT = 0.
    let puts: Vec<u32> = writes.iter().skip(1).map(|w| w.1).collect();
    assert_eq!(puts, vec![1, 2, 3, 0, 1, 2, 3, 0, 1, 2]);
    assert!(
        writes.iter().all(|w| !w.3),
        "GP_PUT advanced while the ring was full"
    );
    assert_eq!(
        writes.iter().map(|w| w.2).max(),
        Some(3),
        "ring filled to Q-1"
    );
    // The ring at the end: entries wrapped, each pointing at its block.
    d.device_mut().entries_per_run = None;
    d.finish().unwrap();
    let dev = d.device();
    assert_eq!(dev.processed.len(), 10);
    let entries: Vec<u32> = dev.processed.iter().map(|p| p.entry).collect();
    assert_eq!(entries, vec![0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    for (i, p) in dev.processed.iter().enumerate() {
        assert_eq!(
            p.commands[0],
            Command::Nop {
                payload_dwords: i as u16
            }
        );
        assert_eq!(
            p.commands[2],
            Command::SemaphoreRelease {
                address: d.fence_address(),
                payload: i as u32 + 1
            }
        );
    }
    assert_eq!(dev.memory.u32(d.fence_address()), Ok(10));
    assert!(d.is_done(Fence(10)).unwrap());
    // All command blocks were freed: only the fence word and ring remain.
    assert_eq!(d.heap().allocations().count(), 2);
}

#[test]
fn a_semaphore_nobody_releases_is_a_blocked_error() {
    let mut d = driver(Isa::Gfx1030);
    let sem = d.alloc(4, 4).unwrap();
    let mut b = CommandBlock::new();
    b.acquire_ge(sem.address, 5);
    let f = d.submit(b).unwrap();
    let e = d.wait(f).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "fence 1 ([{:#x}] >= 1) can never be reached: front end blocked on channel 0 at entry 0 waiting for [{:#x}] >= 5 (it holds 0)",
            d.fence_address(),
            sem.address
        )
    );
    // Releasing it from the host lets the channel finish.
    d.upload(sem, 0, &5u32.to_le_bytes()).unwrap();
    d.wait(f).unwrap();
}

#[test]
fn budget_exhaustion_is_a_timeout_and_a_frozen_ring_is_stuck() {
    let mut dev = FakeDevice::new(Isa::Gfx1030);
    dev.word_budget = 0;
    let mut d = Driver::new(dev).unwrap();
    let f = d.submit(CommandBlock::new()).unwrap();
    let e = d.wait(f).unwrap_err();
    assert_eq!(
        e,
        DriverError::Timeout {
            fence: 1,
            address: d.fence_address()
        }
    );
    assert_eq!(
        d.wait(Fence(9)),
        Err(DriverError::UnknownFence { fence: 9, last: 1 })
    );

    let cfg = DriverConfig {
        channel: ChannelConfig {
            index: 0,
            entries: 2,
            priority: 0,
        },
        ..DriverConfig::default()
    };
    let mut dev = FakeDevice::new(Isa::Gfx1030);
    dev.frozen = true;
    let mut d = Driver::with_config(dev, cfg).unwrap();
    d.submit(CommandBlock::new()).unwrap();
    let e = d.submit(CommandBlock::new()).unwrap_err();
    assert!(matches!(
        e,
        DriverError::RingStuck {
            channel: 0,
            gp_get: 0,
            gp_put: 1,
            entries: 2,
            ..
        }
    ));
    // The failed submission's command block was freed again.
    assert_eq!(d.heap().allocations().count(), 3);
}

#[test]
fn argument_errors_name_the_argument() {
    let mut d = driver(Isa::Gfx1030);
    let (args, size) = v5_args();
    let p = d
        .load(&code_object(Isa::Gfx1030, args, size, 100, 0, true))
        .unwrap();
    let k = p.kernel("k").unwrap().clone();
    let dims = LaunchDims::linear(64, 64);
    let good = || {
        vec![
            Arg::Buffer(0x1000),
            Arg::u32(1),
            Arg::Local(4),
            Arg::f32(1.0),
        ]
    };
    let err = |d: &mut Driver<FakeDevice>, dims, args: Vec<Arg>| {
        d.dispatch(&k, dims, &args).unwrap_err().to_string()
    };
    assert_eq!(
        err(&mut d, dims, good()[..3].to_vec()),
        "kernel `k` takes 4 arguments, 3 given"
    );
    let mut a = good();
    a[0] = Arg::u64(0x1000);
    assert_eq!(
        err(&mut d, dims, a),
        "kernel `k` argument 0 (`out`): expects a buffer, got a 8-byte value"
    );
    let mut a = good();
    a[1] = Arg::u64(1);
    assert_eq!(
        err(&mut d, dims, a),
        "kernel `k` argument 1 (`n`): takes 4 bytes by value, 8 given"
    );
    let mut a = good();
    a[2] = Arg::Local(65536);
    assert_eq!(
        err(&mut d, dims, a),
        "kernel `k` argument 2 (`tmp`): 65536 bytes of LDS at offset 112 exceed the 65536-byte LDS"
    );
    assert_eq!(
        err(&mut d, LaunchDims::linear(2048, 2048), good()),
        "cannot launch `k`: workgroup [2048, 1, 1] has 2048 work-items; the kernel allows at most 1024"
    );
    assert_eq!(
        err(&mut d, LaunchDims::linear(0, 64), good()),
        "cannot launch `k`: zero size in grid [0, 1, 1] or workgroup [64, 1, 1]"
    );
    // Nothing was submitted and nothing leaked.
    assert_eq!(d.last_fence(), Fence(0));
    assert_eq!(d.heap().allocations().count(), 3);
}

#[test]
fn private_segment_gets_a_scratch_slot_per_wave() {
    let mut d = driver(Isa::Gfx1030);
    // wave64, 16 bytes per work-item.
    let p = d
        .load(&code_object(Isa::Gfx1030, vec![], 0, 0, 16, false))
        .unwrap();
    let k = p.kernel("k").unwrap().clone();
    // 4 workgroups of 96 items = 2 waves each (the second partial).
    let disp = d.launch(&k, LaunchDims::linear(384, 96), &[]).unwrap();
    let scratch = disp.scratch.expect("a private segment needs scratch");
    assert_eq!(scratch.size, 16 * 64 * 8);
    assert_eq!(disp.packet.scratch_address, scratch.address);
    assert_eq!(disp.packet.kernarg_address, 0, "no kernarg segment");
    assert_eq!(d.device().dispatches[0].0.scratch_address, scratch.address);
    // Freed after completion.
    assert!(d.heap().find(scratch.address).is_none());

    // wave32 halves the slot, doubles the waves (96 items = 3 waves).
    let p = d
        .load(&code_object(Isa::Gfx1030, vec![], 0, 0, 16, true))
        .unwrap();
    let k = p.kernel("k").unwrap().clone();
    let disp = d.launch(&k, LaunchDims::linear(384, 96), &[]).unwrap();
    assert_eq!(disp.scratch.unwrap().size, 16 * 32 * 12);
}

/// Seed 003: a gfx803 object loads on a gfx1030 device untranslated; the
/// first dispatch translates, the second hits the cache; the packet names the
/// translated descriptor, whose code is the gfx1030 translation.
#[test]
fn legacy_kernels_translate_at_first_dispatch_only() {
    let mut d = driver(Isa::Gfx1030);
    let elf = code_object(Isa::Gfx803, vec![], 0, 0, 0, false);
    let p = d.load(&elf).unwrap();
    assert_eq!(d.xlate_stats().translations, 0, "load must not translate");
    let k = p.kernel("k").unwrap().clone();
    let dims = LaunchDims::linear(64, 64);
    let first = d.launch(&k, dims, &[]).unwrap();
    let stats = d.xlate_stats();
    assert_eq!((stats.translations, stats.hits), (1, 0));
    assert_ne!(first.packet.kernel_object, k.kernel_object);
    let mut desc = [0u8; 64];
    d.device()
        .read(first.packet.kernel_object, &mut desc)
        .unwrap();
    let desc = KernelDescriptor::from_bytes(&desc);
    assert!(
        !desc.kernel_code_properties.enable_wavefront_size32,
        "wave64"
    );
    let entry = first
        .packet
        .kernel_object
        .wrapping_add(desc.kernel_code_entry_byte_offset as u64);
    assert_eq!(entry % 256, 0);
    let mut code = [0u8; 4];
    d.device().read(entry, &mut code).unwrap();
    assert_eq!(code, S_ENDPGM, "s_endpgm encodes alike on both ISAs");
    let second = d.launch(&k, dims, &[]).unwrap();
    assert_eq!(second.packet.kernel_object, first.packet.kernel_object);
    let stats = d.xlate_stats();
    assert_eq!((stats.translations, stats.hits), (1, 1));
    // Unloading frees the translation's device memory too.
    let live = d.heap().allocations().count();
    d.unload(p).unwrap();
    assert_eq!(
        d.heap().allocations().count(),
        live - 2,
        "image and translation"
    );
    // Native gfx803 on the legacy device: no translation.
    let mut legacy = driver(Isa::Gfx803);
    let p = legacy.load(&elf).unwrap();
    let k = p.kernel("k").unwrap().clone();
    let native = legacy.launch(&k, dims, &[]).unwrap();
    assert_eq!(native.packet.kernel_object, k.kernel_object);
    assert_eq!(legacy.xlate_stats().translations, 0);
}

/// Only dispatched kernels are translated: a second kernel in the same
/// object that cannot be translated (`s_setpc_b64`) is never looked at until
/// it is dispatched, and then the error names the kernel, the instruction and
/// its offset.
#[test]
fn only_dispatched_kernels_are_translated() {
    let kernel = |name: &str, text: &str| NewKernel {
        name: name.into(),
        code: arch::isa::assemble(arch::isa::Target::GFX803, text).unwrap(),
        descriptor: KernelDescriptor::default(),
        metadata: KernelMetadata {
            wavefront_size: 64,
            max_flat_workgroup_size: 64,
            ..Default::default()
        },
    };
    let mut w = CodeObjectWriter::new(Isa::Gfx803);
    w.add_kernel(kernel("good", "v_add_u32_e32 v0, vcc, 1, v0\ns_endpgm"));
    w.add_kernel(kernel("bad", "s_nop 0\ns_setpc_b64 s[0:1]\ns_endpgm"));
    let elf = w.write().unwrap();
    let mut d = driver(Isa::Gfx1030);
    let p = d.load(&elf).unwrap();
    let good = p.kernel("good").unwrap().clone();
    let bad = p.kernel("bad").unwrap().clone();
    d.launch(&good, LaunchDims::linear(64, 64), &[]).unwrap();
    assert_eq!(d.xlate_stats().translations, 1);
    let e = d
        .dispatch(&bad, LaunchDims::linear(64, 64), &[])
        .unwrap_err();
    assert!(matches!(e, DriverError::Translate { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("kernel `bad`")
            && msg.contains("byte offset 0x4")
            && msg.contains("s_setpc_b64"),
        "{msg}"
    );
    assert_eq!(
        d.xlate_stats().translations,
        1,
        "a failed translation is not counted"
    );
}
