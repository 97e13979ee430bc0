#include "notation.h"
