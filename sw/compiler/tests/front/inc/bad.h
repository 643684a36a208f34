static inline int helper(int x) {
  return x + missing_in_header;
}
