# The address-space tests again on the H200, after the window's measure stopped counting CUDA's reservations.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
timeout 300 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -rs tests/app/test_address_space.py tests/render/core/test_address_space.py tests/app/test_missing_package.py > $R/address-space-tests.txt 2>&1; echo rc $?; tail -4 $R/address-space-tests.txt
