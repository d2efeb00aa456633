// The shims are header-only (see include/CardFrontendShims.h); SwiftPM needs one source file per C target.
#include "CardFrontendShims.h"
