"""Behaviour cloning of a dataset's decisions into the ``learned`` bot's network (docs/learned.md).

``python -m majiang.rl.train DATASET... --out weights.npz [--hidden 256,256] [--epochs 8] [--batch 256]
[--lr 1e-3] [--seed 0] [--val-games 0.05]``

A multilayer perceptron (:class:`majiang.players.learned.MLPPolicy`) over the flattened observation,
normalised per feature by the training set's mean and standard deviation, trained with Adam on the
cross-entropy of the action taken under the **masked** softmax (illegal actions get no probability,
so the network only learns to rank the legal ones). Written in numpy alone (its own backward pass and
Adam): nothing to install, and on the 2-core CPU machine this project trains on it is as fast as a
framework would be for a network this small (docs/learned.md, "Why numpy"). Deterministic for a
``--seed`` and BLAS thread count. Held-out games (``--val-games``, split by game id, never by sample)
give the validation accuracy printed each epoch and stored in the weights' ``meta``.

Weights are written as float16 (half the size; inference runs in float32) with ``meta`` (JSON: the
encoder, shape, layer sizes, the training set's manifests' digests, epochs, seed, accuracies, seconds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from majiang.rl.actions import (ACTION_SIZE, ADDED_KONG_BASE, CHOW_BASE, CONCEALED_KONG_BASE, DISCARD_BASE,
                                EXPOSED_KONG_BASE, LAYOUT_VERSION, PUNG_BASE, READY_BASE)
from majiang.rl.dataset import DatasetError, load, read_manifest

NEG = -1e9


def _split(game_ids: np.ndarray, frac: float, seed: int) -> np.ndarray:
    """Boolean mask of the validation samples: a fraction ``frac`` of the games, drawn with ``seed``."""
    games = np.unique(game_ids)
    rng = np.random.default_rng(seed)
    k = int(round(frac * len(games)))
    val_games = set(rng.choice(games, size=k, replace=False).tolist()) if k else set()
    return np.fromiter((g in val_games for g in game_ids.tolist()), dtype=bool, count=len(game_ids))


class MLP:
    """The network being trained: ``sizes`` = [inputs, hidden..., outputs]; ReLU between layers."""

    def __init__(self, sizes: list[int], rng: np.random.Generator) -> None:
        self.W = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
        self.b = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
        self.params = [p for pair in zip(self.W, self.b) for p in pair]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        acts = [x]
        h = x
        for i, (w, b) in enumerate(zip(self.W, self.b)):
            h = h @ w + b
            if i < len(self.W) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        return h, acts

    def backward(self, acts: list[np.ndarray], dlogits: np.ndarray,
                 extra: dict[int, np.ndarray] | None = None) -> list[np.ndarray]:
        """Gradients ``[W0, b0, W1, b1, ...]``; ``extra[i]``: a gradient flowing into hidden
        activation ``acts[i]`` from elsewhere (the tile head's context)."""
        grads: list[np.ndarray] = []
        d = dlogits
        for i in range(len(self.W) - 1, -1, -1):
            grads.append(d.sum(axis=0))  # b_i
            grads.append(acts[i].T @ d)  # W_i
            if i:
                d = d @ self.W[i].T
                if extra and i in extra:
                    d = d + extra[i]
                d = d * (acts[i] > 0)
        grads.reverse()  # [W0, b0, W1, b1, ...]
        return grads

    def adam(self, grads: list[np.ndarray], lr: float, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8,
             wd: float = 0.0) -> None:
        self.t += 1
        c1 = 1 - b1 ** self.t
        c2 = 1 - b2 ** self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            if wd and p.ndim == 2:
                p -= lr * wd * p  # decoupled weight decay (AdamW) on the weight matrices
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= lr * (m / c1) / (np.sqrt(v / c2) + eps)


TILE_BASES = (DISCARD_BASE, PUNG_BASE, EXPOSED_KONG_BASE, CONCEALED_KONG_BASE, ADDED_KONG_BASE, READY_BASE)
"""The action blocks indexed by tile column (34 each): discard, pung, the kongs, 报听 + discard."""


class TileHead:
    """The per-tile part of the network: every tile column ``j`` of the raw observation (its ``C``
    plane values, the scalar planes included) goes through one shared layer with the flat network's
    last hidden layer ``g`` as context, ``H_j = relu(x_j V + g G + c)``, and ``S_j = H_j U`` adds one
    score per tile-indexed action block (:data:`TILE_BASES`) at column ``j``. Shared over the 34
    tiles, it learns "discard the tile whose planes say X" once instead of 34 times (the flat network
    alone matched ``strong``'s discards 75% of the time on held-out games and played far below
    ``efficiency``; docs/learned.md)."""

    def __init__(self, planes: int, width: int, context: int, rng: np.random.Generator) -> None:
        self.V = (rng.standard_normal((planes, width)) * np.sqrt(2.0 / planes)).astype(np.float32)
        self.G = (rng.standard_normal((context, width)) * np.sqrt(1.0 / max(context, 1))).astype(np.float32)
        self.c = np.zeros(width, dtype=np.float32)
        self.U = (rng.standard_normal((width, len(TILE_BASES))) * np.sqrt(1.0 / width)).astype(np.float32)
        self.params = [self.V, self.c, self.U, self.G]

    def forward(self, xt: np.ndarray, g: np.ndarray, logits: np.ndarray) -> np.ndarray:
        """``xt``: (N, 34, C) raw observations by column, ``g``: (N, context); adds into ``logits``
        (N, 269); returns H."""
        h = np.maximum(xt @ self.V + (g @ self.G + self.c)[:, None, :], 0.0)
        sc = h @ self.U  # (N, 34, blocks)
        for k, base in enumerate(TILE_BASES):
            logits[:, base:base + 34] += sc[:, :, k]
        return h

    def backward(self, xt: np.ndarray, g: np.ndarray, h: np.ndarray, dlogits: np.ndarray
                 ) -> tuple[list[np.ndarray], np.ndarray]:
        """Gradients ``[V, c, U, G]`` and the gradient into the context ``g``."""
        ds = np.stack([dlogits[:, base:base + 34] for base in TILE_BASES], axis=2)  # (N, 34, blocks)
        du = np.einsum("ntk,ntb->kb", h, ds)
        dpre = (ds @ self.U.T) * (h > 0)
        dv = np.einsum("ntc,ntk->ck", xt, dpre)
        dsum = dpre.sum(axis=1)  # (N, width)
        return [dv, dsum.sum(axis=0), du, g.T @ dsum], dsum @ self.G.T


def suit_permutations() -> list[tuple[np.ndarray, np.ndarray]]:
    """The six permutations of the three suits (characters, bamboo, dots; ranks kept, honours fixed)
    as ``(column permutation (34,), action permutation (269,))``: column ``c`` of an observation moves
    to ``cols[c]``, action ``a`` becomes ``acts[a]``. MCR scores the suits alike but for All Green
    (绿一色, bamboo only; rare), so a suit-permuted sample is as good a sample: training draws one
    permutation per batch (``--augment``), six times the data for the flat layers."""
    import itertools

    from majiang.rl.actions import COLUMN_OF, LAYOUT_TILES, chow_index, chow_of_index

    out = []
    for perm in itertools.permutations(range(3)):
        def tile(t: int) -> int:
            return perm[t // 9] * 9 + t % 9 if t < 27 else t

        cols = np.array([COLUMN_OF[tile(LAYOUT_TILES[c])] for c in range(34)], dtype=np.int64)
        acts = np.arange(ACTION_SIZE, dtype=np.int64)
        for base in TILE_BASES:
            acts[base:base + 34] = base + cols
        for a in range(CHOW_BASE, PUNG_BASE):
            played, low = chow_of_index(a)
            acts[a] = chow_index(tile(played), tile(low))
        out.append((cols, acts))
    return out


def masked_xent(logits: np.ndarray, mask: np.ndarray, action: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean cross-entropy of ``action`` under the softmax over legal actions; its gradient in the
    logits; and the argmax legal action per row."""
    z = np.where(mask > 0, logits, NEG)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    p = e / e.sum(axis=1, keepdims=True)
    n = len(action)
    rows = np.arange(n)
    loss = float(-np.log(np.maximum(p[rows, action], 1e-12)).mean())
    g = p
    g[rows, action] -= 1.0
    return loss, g / n, z.argmax(axis=1)


def train(folders: list[str | Path], out: str | Path, *, hidden: tuple[int, ...] = (256, 256), tile: int = 64,
          epochs: int = 8,
          batch: int = 256, lr: float = 1e-3, seed: int = 0, val_games: float = 0.05, wd: float = 0.0,
          std_floor: float = 0.1, augment: bool = False, log: Any = print) -> dict[str, Any]:
    """Train on the datasets ``folders`` (one rule set and encoding) and write the weights to ``out``;
    returns the ``meta`` written. Raises :class:`~majiang.rl.dataset.DatasetError` for datasets that
    do not agree."""
    t0 = time.perf_counter()
    manifests = [read_manifest(f) for f in folders]
    first = manifests[0]
    for f, m in zip(folders, manifests):
        if (m["observation"], m["shape"], m["layout_version"]) != (first["observation"], first["shape"],
                                                                   first["layout_version"]):
            raise DatasetError(f"{f}: another encoding or layout than {folders[0]}")
    fields = ["observation", "action_mask", "action", "game_id"]
    obs_parts, masks, acts_, gids = [], [], [], []
    for k, f in enumerate(folders):  # observations kept as float16 (exact for the 0/1 planes): half the memory
        p = load(f, fields)
        obs_parts.append(p["observation"].reshape(len(p["observation"]), -1).astype(np.float16))
        masks.append(p["action_mask"])
        acts_.append(p["action"].astype(np.int64))
        gids.append(np.char.add(f"{k}:", p["game_id"]))
        del p
    raw = np.concatenate(obs_parts)
    del obs_parts
    mask = np.concatenate(masks)
    act = np.concatenate(acts_)
    gid = np.concatenate(gids)
    val = _split(gid, val_games, seed)
    tr = np.flatnonzero(~val)
    va = np.flatnonzero(val)
    s1 = np.zeros(raw.shape[1])
    s2 = np.zeros(raw.shape[1])
    for i in range(0, len(tr), 8192):
        xb = raw[tr[i:i + 8192]].astype(np.float64)
        s1 += xb.sum(axis=0)
        s2 += (xb * xb).sum(axis=0)
    mean = (s1 / len(tr)).astype(np.float32)
    std = np.sqrt(np.maximum(s2 / len(tr) - (s1 / len(tr)) ** 2, 0.0))
    # a rare binary feature (std 0.01) scaled up 100 times is one the network overfits to: floor the scale
    std = np.where(std < 1e-3, 1.0, np.maximum(std, std_floor)).astype(np.float32)
    inv = (1.0 / std).astype(np.float32)
    planes = int(first["shape"][0])
    log(f"{len(act)} samples ({len(tr)} train, {len(va)} validation from {len(np.unique(gid[va]))} games), "
        f"{raw.shape[1]} inputs; load {time.perf_counter() - t0:.1f} s")
    rng = np.random.default_rng(seed)
    net = MLP([raw.shape[1], *hidden, ACTION_SIZE], rng)
    if tile and not hidden:
        raise DatasetError("the tile head needs a hidden layer for its context (--hidden)")
    head = TileHead(planes, tile, hidden[-1] if hidden else 0, rng) if tile else None
    ctx = len(hidden)  # acts[ctx]: the last hidden layer
    if head is not None:  # one Adam over both parts
        net.params += head.params
        net.m += [np.zeros_like(p) for p in head.params]
        net.v += [np.zeros_like(p) for p in head.params]

    perms = suit_permutations() if augment else []

    def forward(idx: np.ndarray, perm: tuple[np.ndarray, np.ndarray] | None = None
                ) -> tuple[np.ndarray, list[np.ndarray], Any]:
        xb = raw[idx].astype(np.float32)
        if perm is not None:  # the batch with its suits permuted (the mask and action likewise, by the caller)
            moved = np.empty_like(xb.reshape(len(idx), planes, -1))
            moved[:, :, perm[0]] = xb.reshape(len(idx), planes, -1)
            xb = moved.reshape(len(idx), -1)
        logits, acts = net.forward((xb - mean) * inv)
        if head is None:
            return logits, acts, None
        xt = np.ascontiguousarray(xb.reshape(len(idx), planes, -1).transpose(0, 2, 1))  # (N, 34, C)
        return logits, acts, (xt, head.forward(xt, acts[ctx], logits))

    history = []
    for ep in range(epochs):
        te = time.perf_counter()
        order = rng.permutation(tr)
        step_lr = lr * (0.5 * (1 + np.cos(np.pi * ep / max(epochs, 1))))  # cosine decay per epoch
        tot = hit = 0.0
        for i in range(0, len(order), batch):
            idx = np.sort(order[i:i + batch])
            perm = perms[int(rng.integers(len(perms)))] if perms else None
            bmask, bact = mask[idx], act[idx]
            if perm is not None:
                moved = np.empty_like(bmask)
                moved[:, perm[1]] = bmask
                bmask, bact = moved, perm[1][bact]
            logits, acts, th = forward(idx, perm)
            loss, g, pred = masked_xent(logits, bmask, bact)
            if th is None:
                grads = net.backward(acts, g)
            else:
                hg, dctx = head.backward(th[0], acts[ctx], th[1], g)
                grads = net.backward(acts, g, {ctx: dctx}) + hg
            net.adam(grads, step_lr, wd=wd)
            tot += loss * len(idx)
            hit += float((pred == bact).sum())
        row = {"epoch": ep + 1, "lr": round(float(step_lr), 6), "train_loss": round(tot / len(tr), 4),
               "train_acc": round(hit / len(tr), 4)}
        if len(va):
            vl = vh = 0.0
            for i in range(0, len(va), 4096):
                idx = va[i:i + 4096]
                logits, _, _ = forward(idx)
                loss, _, pred = masked_xent(logits, mask[idx], act[idx])
                vl += loss * len(idx)
                vh += float((pred == act[idx]).sum())
            row["val_loss"] = round(vl / len(va), 4)
            row["val_acc"] = round(vh / len(va), 4)
        row["seconds"] = round(time.perf_counter() - te, 1)
        history.append(row)
        log(json.dumps(row))
    meta = {
        "kind": "mlp+tile" if head is not None else "mlp", "tile_bases": list(TILE_BASES) if head is not None else [],
        "observation": first["observation"], "shape": first["shape"],
        "layers": len(net.W), "sizes": [raw.shape[1], *hidden, ACTION_SIZE], "action_size": ACTION_SIZE,
        "layout_version": LAYOUT_VERSION, "rules": sorted({m["rules_name"] for m in manifests}),
        "datasets": [{"samples": m["samples"], "games": m["games"], "source": m["source"], "sources": m["sources"],
                      "manifest_sha256": hashlib.sha256(json.dumps(m, sort_keys=True).encode()).hexdigest()}
                     for m in manifests],
        "train": {"epochs": epochs, "batch": batch, "lr": lr, "schedule": "cosine per epoch", "optimizer": "adam",
                  "weight_decay": wd, "std_floor": std_floor, "augment_suits": augment, "seed": seed, "val_games": val_games, "samples": int(len(tr)),
                  "val_samples": int(len(va)), "seconds": round(time.perf_counter() - t0, 1), "history": history},
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta)), "mean": mean.astype(np.float32),
                              "std": std.astype(np.float32)}
    for i, (w, b) in enumerate(zip(net.W, net.b)):
        arrays[f"W{i}"] = w.astype(np.float16)
        arrays[f"b{i}"] = b.astype(np.float32)
    if head is not None:
        arrays["V"], arrays["c"], arrays["U"] = head.V.astype(np.float16), head.c, head.U.astype(np.float32)
        arrays["G"] = head.G.astype(np.float16)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    log(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) in {time.perf_counter() - t0:.1f} s")
    return meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m majiang.rl.train", description=__doc__.split("\n")[0])
    ap.add_argument("datasets", nargs="+", help="dataset folders (majiang dataset --out)")
    ap.add_argument("--out", required=True, help="the weights file (.npz)")
    ap.add_argument("--hidden", default="256,256", help="hidden layer sizes, comma-separated")
    ap.add_argument("--tile", type=int, default=64, help="width of the per-tile layer (0: the flat network alone)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=0.0, help="decoupled weight decay (AdamW) on the weight matrices")
    ap.add_argument("--std-floor", type=float, default=0.1, help="least feature scale in the input normalisation")
    ap.add_argument("--augment", action="store_true", help="permute the three suits at random, one permutation a batch")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--val-games", type=float, default=0.05, help="share of games held out for validation")
    a = ap.parse_args(argv)
    hidden = tuple(int(x) for x in a.hidden.split(",") if x.strip())
    try:
        train(a.datasets, a.out, hidden=hidden, tile=a.tile, epochs=a.epochs, batch=a.batch, lr=a.lr, seed=a.seed,
              val_games=a.val_games, wd=a.wd, std_floor=a.std_floor, augment=a.augment)
    except DatasetError as e:
        print(f"majiang.rl.train: {e}")
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
