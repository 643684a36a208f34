// EXPECT: 4:15: no member named 'c' in 'struct pair'
typedef struct { int a; float b; } pair;
kernel void k(global pair *p, global int *out) {
  out[0] = p->c;
}
