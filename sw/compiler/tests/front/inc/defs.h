#ifndef DEFS_H
#define DEFS_H
#define FROM_HEADER 7
#define BAD_USE (undeclared_in_header + 1)
#endif
