// leak_report.h — what the program never freed, reported at MPI_Finalize.
#ifndef MPIDBG_RT_LEAK_REPORT_H
#define MPIDBG_RT_LEAK_REPORT_H

namespace mpidbg::rt {

// MPIDBG_LEAKS set and not "0" ("1": the file is mpidbg-leaks.<job>.json, any other
// value is its path): every rank counts its live objects and requests by kind and
// creating call, rank 0 sums them over MPI_COMM_WORLD (PMPI_Reduce, so every rank must
// have the variable: `mpidbg run --leaks` and the launchers' environment forwarding
// give it to all), prints the report on stderr and writes the JSON file. Called in
// MPI_Finalize before PMPI_Finalize.
void LeaksBeforeFinalize();

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_LEAK_REPORT_H
