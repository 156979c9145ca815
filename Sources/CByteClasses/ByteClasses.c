// The functions are inline in the header; SwiftPM builds a C target only from a source file.
#include "CByteClasses.h"
