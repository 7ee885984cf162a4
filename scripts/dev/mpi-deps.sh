#!/usr/bin/env bash
# Source it: Debian's Open MPI without installing it (the GPU machine starts bare, no network).
# Unpacks the .debs of MPI_DEBS (default .deps-mpi/, fetched on a networked machine with
#   apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libhwloc15 \
#     libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libibverbs1 libucx0 \
#     librdmacm1 libpsm2-2 libpsm-infinipath1 libnl-3-200 libnl-route-3-200 libnuma1 libmunge2 libltdl7
# ) into MPI_DEBS/root and points PATH, LD_LIBRARY_PATH and OPAL_PREFIX at it, so that mpicxx,
# mpirun and CMake's find_package(MPI) find it. Does nothing when mpirun is already on PATH.
if command -v mpirun >/dev/null 2>&1 && [[ -z ${MPI_DEBS_FORCE:-} ]]; then
  return 0 2>/dev/null || exit 0
fi
MPI_DEBS=$(realpath "${MPI_DEBS:-.deps-mpi}")
if ! ls "$MPI_DEBS"/*.deb >/dev/null 2>&1; then
  echo "mpi-deps.sh: no Open MPI .debs in $MPI_DEBS" >&2
  return 1 2>/dev/null || exit 1
fi
MPI_ROOT=$MPI_DEBS/root
if [[ ! -x $MPI_ROOT/usr/bin/orterun ]]; then
  for deb in "$MPI_DEBS"/*.deb; do dpkg -x "$deb" "$MPI_ROOT" || { echo "mpi-deps.sh: cannot unpack $deb" >&2; break; }; done
  # What Debian's alternatives would link.
  for tool in mpirun mpiexec mpicc mpicxx mpic++; do ln -sf "$tool.openmpi" "$MPI_ROOT/usr/bin/$tool"; done
fi
export OPAL_PREFIX=$MPI_ROOT/usr
export PATH=$MPI_ROOT/usr/bin:$PATH
export LD_LIBRARY_PATH=$MPI_ROOT/usr/lib/x86_64-linux-gnu:$MPI_ROOT/lib/x86_64-linux-gnu:$MPI_ROOT/usr/lib/x86_64-linux-gnu/libpsm1:$MPI_ROOT/usr/lib/x86_64-linux-gnu/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0
