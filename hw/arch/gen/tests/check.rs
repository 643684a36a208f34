//! `cargo test` fails when the committed generated files are stale or a
//! description is invalid.

use arch_gen::{parse_file, stale, FAMILIES};

#[test]
fn committed_tables_are_current() {
    let stale =
        stale(&arch_gen::repo_root()).unwrap_or_else(|e| panic!("invalid description: {e}"));
    assert!(
        stale.is_empty(),
        "stale generated files (run `cargo run -p arch-gen`): {stale:?}"
    );
}

fn vop2() -> usize {
    FAMILIES
        .iter()
        .position(|f| f.0 == "VOP2")
        .expect("VOP2 is a family")
}

#[test]
fn a_valid_line_parses_with_fields_and_types() {
    let rows = parse_file(
        "x.isa",
        vop2(),
        "# c\n\n40 v_add_co_ci_u32 vdst:b32 vcc:lanemask src0:b32\n",
    )
    .expect("valid");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].number, 40);
    assert_eq!(rows[0].mnemonic, "v_add_co_ci_u32");
    assert_eq!(rows[0].operands.len(), 3);
    assert_eq!(arch_gen::FIELDS[rows[0].operands[1].field].0, "vcc");
    assert_eq!(arch_gen::TYPES[rows[0].operands[1].ty].0, "lanemask");
}

#[test]
fn errors_name_file_line_and_problem() {
    let cases = [
        ("1 v_x vdst:b33\n", "unknown type `b33`"),
        ("1 v_x vdest:b32\n", "unknown field `vdest`"),
        ("1 v_x vdst\n", "not `field:type`"),
        ("64 v_x\n", "outside VOP2's range"),
        ("1 v_x\n1 v_y\n", "already used on line 1"),
        ("1 v_x_e32\n", "encoding suffix"),
        ("one v_x\n", "not a decimal integer"),
    ];
    for (text, want) in cases {
        let e = parse_file("f.isa", vop2(), text).expect_err(text);
        assert!(e.to_string().starts_with("f.isa:"), "{e}");
        assert!(e.message.contains(want), "`{text}`: {e}");
    }
    let e = parse_file("f.isa", vop2(), "1 v_x\n1 v_y\n").expect_err("dup");
    assert_eq!(e.line, 2);
}
