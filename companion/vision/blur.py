"""Reading a marker's data modules through blur.

A small sticker under focus or motion blur smears each module into its neighbours: sampled at its middle, a white
module between black ones reads grey, and a marker 30 px across can read several bits wrong. ``BlurredSticker`` reads
the modules otherwise: it fits the straightened sticker, by least squares, as the printed sticker (its white quiet
zone and black border known, its data modules unknown) blurred by a Gaussian, under a light that may change across the
sticker. The fit undoes the blur and gives each data module's value on the scale of the sticker's own black (0) and
white (1). The blur's width is not known: each of ``BLUR_SIGMAS`` is fitted and the closest fit is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

PX_PER_MODULE = 4
"""The straightened sticker's scale."""
BLUR_SIGMAS = (0.3, 0.4, 0.5, 0.6)
"""The blurs tried, in modules (a 1.0-1.5 px blur on 3.2-4.7 px modules, with the camera's own softness)."""
FITTED_MARGIN = 0.75
"""Modules of the sticker's edge left out of the fit: the tile's art outside the quiet zone blurs into it."""
Floats = npt.NDArray[np.float64]
NOTHING, NOTHING64 = np.empty((0, 0), dtype=np.float32), np.empty((0, 0))
"""No matrix to add to a product."""


@dataclass(frozen=True, slots=True)
class ModuleFit:
    """Of each sticker fitted: its data modules (0: the border's black, 1: the quiet zone's white), the contrast
    between the two in grey levels, and how far each corner of the straightened sticker (clockwise from top-left) lies
    from where it was assumed, in its pixels (x, y)."""

    values: Floats
    contrast: Floats
    corner_moves: Floats


class BlurredSticker:
    """The least-squares fits of a sticker of ``data`` modules square inside a black border of ``border`` modules and
    a white quiet zone of ``quiet`` modules."""

    def __init__(self, data: int, border: int = 1, quiet: int = 1) -> None:
        self.data = data
        modules, px, first = data + 2 * (border + quiet), PX_PER_MODULE, border + quiet
        printed = np.ones((modules, modules))  # the quiet zone white, the border black, the data left black
        printed[quiet:-quiet, quiet:-quiet] = 0.0
        lo, hi = int(FITTED_MARGIN * px), modules * px - int(FITTED_MARGIN * px)
        self._window = slice(lo, hi)
        u, v = ((axis.ravel() + 0.5) / (modules * px) for axis in np.mgrid[lo:hi, lo:hi].astype(np.float64)[::-1])
        pulls = [(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v]  # each corner's, clockwise from top-left
        designs = []
        for sigma in BLUR_SIGMAS:
            def blurred(modules_image: Floats, outside: float, sigma: float = sigma) -> Floats:
                pad = 3 * px
                big = np.pad(np.kron(modules_image, np.ones((px, px))), pad, constant_values=outside)
                return np.asarray(cv2.GaussianBlur(big, (0, 0), sigma * px)[pad:-pad, pad:-pad])

            frame = blurred(printed, 1.0)
            slope_y, slope_x = (np.asarray(g)[lo:hi, lo:hi].ravel() for g in np.gradient(frame))
            columns = [np.ones_like(u), u - 0.5, v - 0.5, frame[lo:hi, lo:hi].ravel()]  # the light, its slope, the print
            columns += [pull * slope for pull in pulls for slope in (slope_x, slope_y)]  # each corner a little off
            for row in range(first, first + data):
                for column in range(first, first + data):
                    single = np.zeros((modules, modules))
                    single[row, column] = 1.0
                    columns.append(blurred(single, 0.0)[lo:hi, lo:hi].ravel())
            designs.append(np.stack(columns, axis=1))
        self._unknowns = designs[0].shape[1]
        self._gram = np.stack([design.T @ design for design in designs])
        """How much of a sticker a blur's fit ``x`` explains: x . gram x (the misfit is |seen|^2 less that)."""
        self._solve = np.concatenate([np.linalg.solve(gram, design.T) for gram, design in zip(self._gram, designs)],
                                     dtype=np.float32)
        """Every blur's least-squares solution at once (the normal equations): (blurs x unknowns) by pixels."""

    def fit(self, stickers: npt.NDArray[np.float32]) -> ModuleFit:
        """The data modules of each of ``stickers`` (stacked): a sticker straightened at ``PX_PER_MODULE``, quiet zone
        included, the centre of its top-left pixel half a pixel inside its corner."""
        seen = stickers[:, self._window, self._window].reshape(len(stickers), -1).T  # pixels by stickers
        solved = cv2.gemm(self._solve, np.ascontiguousarray(seen), 1.0, NOTHING, 0.0)  # OpenCV's product: numpy's
        solutions = np.asarray(solved, dtype=np.float64).reshape(len(BLUR_SIGMAS), self._unknowns, -1)  # BLAS threads
        # spin on a busy Pi and after each product (a 4K table frame took 113 ms instead of 91)
        explained = np.stack([(np.asarray(cv2.gemm(gram, solution, 1.0, NOTHING64, 0.0)) * solution).sum(axis=0)
                              for gram, solution in zip(self._gram, solutions)])
        best = explained.argmax(axis=0)  # the least misfit: |seen|^2 less what the fit explains
        solution = solutions[best, :, np.arange(len(stickers))]
        contrast = solution[:, 3]  # white minus black: the printed frame's weight
        scale = np.where(np.abs(contrast) > 1e-9, contrast, np.inf)[:, None]
        return ModuleFit((solution[:, 12:] / scale).reshape(-1, self.data, self.data), contrast,
                         (-solution[:, 4:12] / scale).reshape(-1, 4, 2))
