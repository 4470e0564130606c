/* Ends a kernel's lane operations in native_solver.c, so that the next kernel can define its
 * own; the includer ends ROUND itself where the next kernel changes it. */
#undef V
#undef ADD
#undef ROR
#undef SHR
#undef XOR3
#undef CH
#undef MAJ
#undef SET1
