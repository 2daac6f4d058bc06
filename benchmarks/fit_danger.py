"""Fit the learned danger model (a logistic regression on :func:`majiang.players.danger.tile_features`)
from ``benchmarks/danger_data.py`` files, and compare it on held-out games with the hand-made estimate
(the same regression on the bias and that estimate's log alone).

Usage: ``python benchmarks/fit_danger.py TRAIN.npz[,TRAIN2.npz] TEST.npz`` -- prints log-loss and AUC
of both on the test file, then the coefficients as a Python tuple (for
``majiang.players.danger.LEARNED``).
"""

from __future__ import annotations

import sys

import numpy as np

from majiang.players.danger import FEATURES


def load(spec: str) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for p in spec.split(","):
        z = np.load(p)
        xs.append(z["X"].astype(np.float64))
        ys.append(z["y"].astype(np.float64))
    return np.concatenate(xs), np.concatenate(ys)


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 30) -> np.ndarray:
    """L2-regularised logistic regression by Newton's method (the bias not penalised)."""
    w = np.zeros(X.shape[1])
    w[0] = np.log(max(y.mean(), 1e-6) / (1 - y.mean()))
    pen = np.full(X.shape[1], l2)
    pen[0] = 0.0
    def loss(w: np.ndarray) -> float:
        z = np.clip(X @ w, -30, 30)
        return float(np.sum(np.logaddexp(0, z) - y * z) + 0.5 * np.sum(pen * w * w))

    cur = loss(w)
    for _ in range(iters):
        z = np.clip(X @ w, -30, 30)
        p = 1 / (1 + np.exp(-z))
        g = X.T @ (p - y) + pen * w
        H = (X * (p * (1 - p))[:, None]).T @ X + np.diag(pen) + 1e-9 * np.eye(X.shape[1])
        step = np.linalg.solve(H, g)
        a = 1.0
        while a > 1e-4:  # backtracking: Newton's full step can overshoot from the start
            new = loss(w - a * step)
            if new <= cur:
                break
            a /= 2
        w = w - a * step
        if cur - new < 1e-7 * max(1.0, abs(cur)):
            cur = new
            break
        cur = new
    return w


def logloss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    npos = y.sum()
    return float((ranks[y == 1].sum() - npos * (npos + 1) / 2) / (npos * (len(y) - npos)))


def main() -> None:
    Xtr, ytr = load(sys.argv[1])
    Xte, yte = load(sys.argv[2])
    print(f"train {len(ytr)} rows ({int(ytr.sum())} deal-ins), test {len(yte)} ({int(yte.sum())})")
    base = [0, 1]
    wb = fit(Xtr[:, base], ytr)
    w = fit(Xtr, ytr)
    for name, p in (("hand-made estimate (recalibrated)", 1 / (1 + np.exp(-Xte[:, base] @ wb))),
                    ("hand-made estimate (as is)", np.clip(np.exp(Xte[:, 1]) - 1e-4, 0, 0.6)),
                    ("learned", 1 / (1 + np.exp(-np.clip(Xte @ w, -30, 30))))):
        print(f"{name:36s} log-loss {logloss(p, yte):.5f}  AUC {auc(p, yte):.4f}  mean {p.mean():.4f} "
              f"(actual {yte.mean():.4f})")
    print("LEARNED = (" + ", ".join(f"{v:.4f}" for v in w) + ")")
    for n, v in zip(FEATURES, w):
        print(f"  {n:24s} {v:+.3f}")


if __name__ == "__main__":
    main()
