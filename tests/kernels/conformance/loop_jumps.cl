// `continue` and `break` anywhere in a loop body: a continue inside a
// conditional whose other side may still break later in the body (the
// Collatz loop), breaks nested in conditionals, continue and break in one
// if/else, in for, while and do/while loops, divergent across lanes.
#include "gpusim_cl.h"

// A return nested in a loop's conditional, with a value, after a continue.
static int first_match(int x, int limit) {
  for (int j = 0; j < 16; j++) {
    if (j == (x & 3))
      continue;
    if ((x >> j) & 1) {
      if (j > limit)
        return j * 10 + limit;
      x ^= j;
    }
  }
  return -1;
}

// A return from an inner loop's nested conditional, inside an outer loop
// whose exits are flagged.
static int nested_return(int x) {
  int s = 0;
  for (int a = 0; a < 4; a++) {
    for (int b = 0; b < 4; b++) {
      if ((x >> b) & 1) {
        if (a > b + (x & 1))
          return s + 1000;
        s++;
      }
    }
    if (a == (x & 7))
      continue;
    s += 2;
  }
  return s;
}

kernel void loop_jumps(global const int *in, global int *o) {
  uint i = gs_global_id(0);
  int x = in[i], s = 0;

  // Collatz steps, capped: a continue in an if, a break after it.
  int c = x & 0x3ff;
  while (1) {
    if (c <= 1)
      break;
    if (c & 1) {
      c = 3 * c + 1;
      s++;
      continue;
    }
    c >>= 1;
    s += 2;
    if (s > 200)
      break;
  }
  o[i * 8 + 0] = s * 10000 + c;

  // A break nested in a conditional.
  int t = 0;
  for (int j = 0; j < 10; j++) {
    if (x & j) {
      if (t > 5 + (x & 3))
        break;
      t++;
    }
    t ^= x & 0xf;
  }
  o[i * 8 + 1] = t;

  // continue in the then-arm, the else-arm falls through to a break.
  int u = 0, j = 0;
  for (; j < 12; j++) {
    if ((x >> (j & 7)) & 1) {
      u += j;
      continue;
    } else {
      u--;
    }
    u ^= x & 0x3f;
    if (u > 100)
      break;
  }
  o[i * 8 + 2] = u * 100 + j;

  // if (c) continue; then a break.
  int v = 0, k;
  for (k = 0; k < 10; k++) {
    if (k == (x & 7))
      continue;
    v += k;
    if (v > 12 + (x & 15))
      break;
  }
  o[i * 8 + 3] = v * 100 + k;

  // do/while with a break nested under a continue's if.
  int w = 0, m = 0;
  do {
    m++;
    if (x & m) {
      if (m > 3 + (x & 1))
        break;
      continue;
    }
    w += m;
  } while (m < 8);
  o[i * 8 + 4] = w * 100 + m;

  // Nested loops: the inner breaks from a conditional, the outer continues.
  int z = 0;
  for (int a = 0; a < 4; a++) {
    if (a == (x & 3))
      continue;
    for (int b = 0; b < 6; b++) {
      if (b > a) {
        if ((x ^ b) & 1)
          break;
        z += 3;
      }
      z++;
    }
    if (z > 20 + (x & 7))
      break;
  }
  o[i * 8 + 5] = z;
  // A continue inside a switch, then a break after the switch.
  int y = 0;
  for (int q = 0; q < 10; q++) {
    switch ((x >> q) & 3) {
    case 1:
      if (y > 3)
        continue;
      y++;
      break;
    case 2:
      y += 3;
    default:
      y += 2;
    }
    if (y > 9 + (x & 3))
      break;
  }
  z += y * 1000;
  o[i * 8 + 6] = first_match(x, x & 7) * 100000 + nested_return(x);

  // A kernel-level return nested in a loop: lanes that return skip the last store.
  for (int q = 0; q < 8; q++) {
    if ((x >> q) & 1) {
      if (q > 2 + (x & 3))
        return;
      z += q;
    }
  }
  o[i * 8 + 7] = z;
}
