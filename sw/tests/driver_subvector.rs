//! The driver reads the GPUSIM sub-vector note (docs/code-objects.md) on
//! `load` and writes each kernel's issue-order indication and shared-VGPR
//! count into its DISPATCH packets (seed 000 §2, §4); the workload's settings
//! override the note; a malformed note fails the load with a clear error.

#[allow(dead_code)] // the double's helpers other driver tests use
mod fake;

use arch::code_object::{
    write_subvector_note, CodeObjectWriter, KernelDescriptor, KernelMetadata, KernelSubvector,
    NewKernel, GPUSIM_NOTE_OWNER, NT_GPUSIM_SUBVECTOR,
};
use arch::command::SubvectorHint;
use arch::isa::Isa;
use fake::FakeDevice;
use sw::driver::{Driver, LaunchDims};

const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

/// Two wave64 kernels, `big` and `plain`, with `note` as the sub-vector
/// note's descriptor (none when `None`).
fn code_object(note: Option<Vec<u8>>) -> Vec<u8> {
    let mut w = CodeObjectWriter::new(Isa::Gfx1030);
    for name in ["big", "plain"] {
        w.add_kernel(NewKernel {
            name: name.into(),
            code: S_ENDPGM.to_vec(),
            descriptor: KernelDescriptor::default(),
            metadata: KernelMetadata {
                wavefront_size: 64,
                max_flat_workgroup_size: 1024,
                ..Default::default()
            },
        });
    }
    if let Some(desc) = note {
        w.add_note(GPUSIM_NOTE_OWNER, NT_GPUSIM_SUBVECTOR, desc);
    }
    w.write().expect("writer accepts the kernels")
}

fn big_note() -> Vec<u8> {
    write_subvector_note(&[KernelSubvector {
        name: "big".into(),
        mode: SubvectorHint::Subvector,
        shared_vgprs: 64,
    }])
    .unwrap()
}

/// `(hint, shared)` of the packet of a dispatch of each kernel.
fn packets(d: &mut Driver<FakeDevice>, elf: &[u8]) -> Vec<(SubvectorHint, u8)> {
    let program = d.load(elf).expect("loads");
    let out = program
        .kernels
        .iter()
        .map(|k| {
            let p = d
                .dispatch(k, LaunchDims::linear(64, 64), &[])
                .expect("dispatches")
                .packet;
            (p.subvector_hint, p.shared_vgprs)
        })
        .collect();
    d.finish().unwrap();
    out
}

#[test]
fn the_note_sets_each_kernels_indication_and_shared_vgprs() {
    let mut d = Driver::new(FakeDevice::new(Isa::Gfx1030)).unwrap();
    let elf = code_object(Some(big_note()));
    assert_eq!(
        packets(&mut d, &elf),
        [(SubvectorHint::Subvector, 64), (SubvectorHint::None, 0)]
    );
    // Without a note nothing is indicated or shared.
    assert_eq!(
        packets(&mut d, &code_object(None)),
        [(SubvectorHint::None, 0), (SubvectorHint::None, 0)]
    );
}

#[test]
fn the_workloads_settings_override_the_note() {
    let mut d = Driver::new(FakeDevice::new(Isa::Gfx1030)).unwrap();
    d.set_subvector_hint(SubvectorHint::Auto);
    d.set_shared_vgprs(Some(8));
    let elf = code_object(Some(big_note()));
    assert_eq!(
        packets(&mut d, &elf),
        [(SubvectorHint::Auto, 8), (SubvectorHint::Auto, 8)]
    );
    // Only the shared count given: the indication still comes from the note.
    d.set_subvector_hint(SubvectorHint::None);
    d.set_shared_vgprs(Some(0));
    assert_eq!(
        packets(&mut d, &elf),
        [(SubvectorHint::Subvector, 0), (SubvectorHint::None, 0)]
    );
}

#[test]
fn a_malformed_note_fails_the_load_with_a_clear_error() {
    let mut d = Driver::new(FakeDevice::new(Isa::Gfx1030)).unwrap();
    let err = |d: &mut Driver<FakeDevice>, desc: Vec<u8>| {
        d.load(&code_object(Some(desc)))
            .expect_err("malformed note rejected")
            .to_string()
    };
    let mut bad_mode = big_note();
    bad_mode[8] = 7;
    let e = err(&mut d, bad_mode);
    assert!(
        e.contains("GPUSIM sub-vector note: record 0: mode 7"),
        "{e}"
    );
    let truncated = big_note()[..10].to_vec();
    assert!(err(&mut d, truncated).contains("runs past the end"));
    let unknown = write_subvector_note(&[KernelSubvector {
        name: "missing".into(),
        ..KernelSubvector::default()
    }])
    .unwrap();
    let e = err(&mut d, unknown);
    assert!(e.contains("names kernel `missing`"), "{e}");
    // The failed loads left the heap as it was: a good object still loads.
    assert!(d.load(&code_object(Some(big_note()))).is_ok());
}
