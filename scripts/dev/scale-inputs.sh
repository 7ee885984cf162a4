# Sourced by scale-bench.sh and scale-callgrind.sh: the ten devices they predict on (the six
# measured H100/H200 profiles, with launch overheads for rank's launch gaps, and four of the
# thesis GPUs) as `device_args`, and make_scale_profile, which writes the synthetic profile.
devices=(data/devices/measured/h100-sxm.json data/devices/measured/h100-sxm-mps50.json
         data/devices/measured/h100-sxm-mps25.json data/devices/measured/h200-sxm.json
         data/devices/measured/h200-sxm-mps50.json data/devices/measured/h200-sxm-mps25.json
         data/devices/thesis-gtx-660.json data/devices/thesis-gtx-960.json
         data/devices/thesis-gtx-1060-6gb.json data/devices/thesis-tesla-k20c.json)
device_args=()
for d in "${devices[@]}"; do device_args+=(--device "$d"); done

# make_scale_profile WORK KERNELS METRICS WHO: scripts/dev/scale-profile.py's profile of KERNELS
# kernels with the METRICS counters in WORK; sets `profile` to its path (WHO names the caller
# in the progress line).
make_scale_profile() {
  mkdir -p "$1"
  profile="$1/profile-$2-$3.json"
  echo "$4: writing $profile ($2 kernels, $3 counters)" >&2
  python3 scripts/dev/scale-profile.py --kernels "$2" --metrics "$3" --output "$profile"
}
