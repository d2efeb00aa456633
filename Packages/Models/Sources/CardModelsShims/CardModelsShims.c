// The shims are header-only (see include/CardModelsShims.h); SwiftPM needs one source file per C target.
#include "CardModelsShims.h"
