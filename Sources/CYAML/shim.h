#ifndef TRACKC_CYAML_SHIM_H
#define TRACKC_CYAML_SHIM_H
#include <yaml.h>
#endif
