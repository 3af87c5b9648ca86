// export.h — marks the functions the plugin exports.
//
// The library is built with -fvisibility=hidden and a version script; only definitions
// carrying MPIDBG_EXPORT (the mqs_* and mpidbg_* interface) reach the dynamic symbol
// table.
#ifndef MPIDBG_PLUGIN_EXPORT_H
#define MPIDBG_PLUGIN_EXPORT_H

#define MPIDBG_EXPORT extern "C" __attribute__((visibility("default")))

#endif  // MPIDBG_PLUGIN_EXPORT_H
