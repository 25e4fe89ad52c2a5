// The generic-tables test compiled as C++: the same calls select the C++ overloads.
#include "generic_tables.c"
