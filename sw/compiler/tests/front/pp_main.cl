#include "defs.h"
#include "defs.h"
int x = FROM_HEADER;
