// The GPUSIM sub-vector note (docs/code-objects.md) for subvec_vgpr: mode 2
// (sub-vector looping), 64 shared VGPRs. Appended to subvec_vgpr.s to build
// subvec_vgpr_note.hsaco (build_subvec_vgpr.sh).
	.section	.note.GPUSIM,"a",@note
	.p2align	2
	.long	7
	.long	24
	.long	1
	.asciz	"GPUSIM"
	.p2align	2
	.long	1, 1
	.byte	2, 64
	.short	11
	.ascii	"subvec_vgpr"
	.p2align	2
