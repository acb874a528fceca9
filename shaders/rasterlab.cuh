// The contract of a user kernel: what a .cu file run as the variant file:PATH gets, the same
// helpers the built-in kernels use, so that a correct kernel matches the CPU reference bit for bit
// (docs/user-kernels.md walks through it).
//
// The file declares how it is launched in its opening comment lines, one key each:
//   // rasterlab: kernel = NAME             the blend kernel (extern "C", RASTERLAB_BLEND_PARAMS)
//   // rasterlab: grid = pixels | tiles     a thread per pixel, or a block per square tile
//   // rasterlab: tile = 16                 pixels per side of a tile (grid = tiles; 1 to 256)
//   // rasterlab: block = 16x16 | 256       threads per block (default 16x16, or tile x tile)
//   // rasterlab: binning = NAME            optional: a kernel launched before the blend
//   // rasterlab: binning_grid = circles | tiles   a thread per circle, or a block per tile
//   // rasterlab: binning_block = 256       the binning kernel's threads per block
//   // rasterlab: scratch = 8 * count + 4 * tiles   bytes of device memory both kernels share,
//                                          zeroed before each frame's binning
// Expressions may use count (circles), tiles (of the grid's tile size), width, height, pixels.
//
// It is compiled like the built-in kernels (NVRTC, sm_90, -std=c++17 --fmad=false --ftz=true), with
// this folder and the file's own folder on the include path.
#pragma once

#include "block_scan.cuh"
#include "circle_common.cuh"

// The blend kernel's parameters, in this order: the circles (x, y, z per circle; the radius; r, g, b
// per circle), the image (float4 RGBA, row 0 = bottom, width x height), the circles' number and
// whether they are snowflakes (1) or flat, how a frame starts (clear != 0: from the background;
// see start_pixel), and the scratch memory.
#define RASTERLAB_BLEND_PARAMS                                                                     \
    const float *position, const float *radius, const float *color, float4 *image, int width,    \
        int height, int count, int snowflake, int clear, int snow, float red, float green,        \
        float blue, unsigned char *scratch, long long scratch_bytes

// The binning kernel's parameters: the circles' shapes, their number, the image's size and the
// scratch memory (zeroed before each frame's binning).
#define RASTERLAB_BINNING_PARAMS                                                                   \
    const float *position, const float *radius, int count, int width, int height,                 \
        unsigned char *scratch, long long scratch_bytes
