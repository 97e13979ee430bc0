#include "pgn.h"
