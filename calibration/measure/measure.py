#!/usr/bin/env python3
"""Measure inference latency vs batch size for sonicsim's reference models.

PyTorch only (no other third-party dependency).  The reference models are built
from their published architectures with random weights (fixed seed); inputs are
random tensors already resident on the device, so the timing covers the model's
forward pass (kernel time + launch overhead), not host<->device copies.

Writes one CSV per (device, model, framework) with a '# key: value' provenance
header; the format is documented in calibration/data/README.md.
"""
import argparse
import datetime
import math
import os
import platform
import re
import shlex
import socket
import statistics
import subprocess
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULT_BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
SEED = 12345


# --------------------------------------------------------------------------------------
# EmTrkMichelId CNN (ProtoDUNE): 48x48x1 patch -> conv 5x5x48 + ReLU -> flatten ->
# dense 128 -> dense 32 -> heads: em/trk/none (3, softmax) and michel (1, sigmoid).
# --------------------------------------------------------------------------------------
class EmTrkMichelId(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 48, kernel_size=5)          # valid padding -> 44x44
        self.fc1 = nn.Linear(48 * 44 * 44, 128)
        self.fc2 = nn.Linear(128, 32)
        self.head_emtrk = nn.Linear(32, 3)
        self.head_michel = nn.Linear(32, 1)

    def forward(self, x):
        x = F.relu(self.conv(x))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return torch.softmax(self.head_emtrk(x), dim=1), torch.sigmoid(self.head_michel(x))


def emtrk_inputs(b, dev):
    return (torch.rand(b, 1, 48, 48, device=dev),)


# --------------------------------------------------------------------------------------
# ParticleNet (Qu & Gouskos, arXiv:1902.08570) in the form of the CMS ParticleNet tagger
# (weaver ParticleNetTagger): PF candidates [N,20,100] + secondary vertices [N,11,10],
# each embedded to 32 channels by a 1x1 conv, concatenated to 110 points; EdgeConv
# blocks k=16 with (64,64,64), (128,128,128), (256,256,256); fusion conv; masked global
# average pooling; dense 256 (+dropout, inactive in inference); 2 outputs.
# --------------------------------------------------------------------------------------
def _knn(x, k):
    inner = -2 * torch.matmul(x.transpose(2, 1), x)
    xx = torch.sum(x ** 2, dim=1, keepdim=True)
    pairwise = -xx - inner - xx.transpose(2, 1)
    return pairwise.topk(k=k + 1, dim=-1)[1][:, :, 1:]


def _graph_feature(x, k, idx):
    b, c, n = x.size()
    idx = (idx + torch.arange(0, b, device=x.device).view(-1, 1, 1) * n).view(-1)
    fts = x.transpose(2, 1).reshape(-1, c)[idx, :].view(b, n, k, c)
    fts = fts.permute(0, 3, 1, 2).contiguous()
    x = x.view(b, c, n, 1).repeat(1, 1, 1, k)
    return torch.cat((x, fts - x), dim=1)


class EdgeConvBlock(nn.Module):
    def __init__(self, k, in_feat, out_feats):
        super().__init__()
        self.k = k
        layers = []
        for i, out in enumerate(out_feats):
            layers += [nn.Conv2d(2 * in_feat if i == 0 else out_feats[i - 1], out, 1, bias=False),
                       nn.BatchNorm2d(out), nn.ReLU()]
        self.convs = nn.Sequential(*layers)
        self.sc = None
        if in_feat != out_feats[-1]:
            self.sc = nn.Sequential(nn.Conv1d(in_feat, out_feats[-1], 1, bias=False),
                                    nn.BatchNorm1d(out_feats[-1]))

    def forward(self, points, features):
        x = _graph_feature(features, self.k, _knn(points, self.k))
        fts = self.convs(x).mean(dim=-1)
        sc = self.sc(features) if self.sc is not None else features
        return F.relu(sc + fts)


class ParticleNetTagger(nn.Module):
    def __init__(self, pf_dims=20, sv_dims=11, num_classes=2,
                 conv_params=((16, (64, 64, 64)), (16, (128, 128, 128)), (16, (256, 256, 256))),
                 fc_params=((256, 0.1),)):
        super().__init__()

        def feature_conv(i, o):
            return nn.Sequential(nn.BatchNorm1d(i), nn.Conv1d(i, o, 1, bias=False),
                                 nn.BatchNorm1d(o), nn.ReLU())

        self.pf_conv = feature_conv(pf_dims, 32)
        self.sv_conv = feature_conv(sv_dims, 32)
        self.bn_fts = nn.BatchNorm1d(32)
        self.edge_convs = nn.ModuleList()
        in_feat = 32
        for k, chans in conv_params:
            self.edge_convs.append(EdgeConvBlock(k, in_feat, chans))
            in_feat = chans[-1]
        in_chn = sum(c[-1] for _, c in conv_params)
        out_chn = int(min(max((in_chn // 128) * 128, 128), 1024))
        self.fusion = nn.Sequential(nn.Conv1d(in_chn, out_chn, 1, bias=False),
                                    nn.BatchNorm1d(out_chn), nn.ReLU())
        fcs, prev = [], out_chn
        for units, drop in fc_params:
            fcs += [nn.Linear(prev, units), nn.ReLU(), nn.Dropout(drop)]
            prev = units
        fcs.append(nn.Linear(prev, num_classes))
        self.fc = nn.Sequential(*fcs)

    def forward(self, pf_points, pf_features, pf_mask, sv_points, sv_features, sv_mask):
        points = torch.cat((pf_points, sv_points), dim=2)
        features = torch.cat((self.pf_conv(pf_features * pf_mask) * pf_mask,
                              self.sv_conv(sv_features * sv_mask) * sv_mask), dim=2)
        mask = torch.cat((pf_mask, sv_mask), dim=2)
        points = points * mask
        coord_shift = (mask == 0) * 1e9
        counts = mask.sum(dim=-1).clamp(min=1)
        fts = self.bn_fts(features) * mask
        outputs = []
        for i, conv in enumerate(self.edge_convs):
            pts = (points if i == 0 else fts) + coord_shift
            fts = conv(pts, fts) * mask
            outputs.append(fts)
        fts = self.fusion(torch.cat(outputs, dim=1)) * mask
        return self.fc(fts.sum(dim=-1) / counts)


def particlenet_inputs(b, dev):
    # Shapes of docs/reference/published-results.md §3: points [N,2,100], features [N,20,100],
    # mask [N,1,100], SV points [N,2,10], SV features [N,11,10], SV mask [N,1,10]; all slots occupied.
    return (torch.randn(b, 2, 100, device=dev) * 0.4, torch.randn(b, 20, 100, device=dev),
            torch.ones(b, 1, 100, device=dev),
            torch.randn(b, 2, 10, device=dev) * 0.4, torch.randn(b, 11, 10, device=dev),
            torch.ones(b, 1, 10, device=dev))


# --------------------------------------------------------------------------------------
# DeepMET-like (CMS DeepMET, per-candidate weights): inputs [N,4500,8] continuous +
# 3 x [N,4500,1] categorical (charge, pdgId class, fromPV), each embedded to dim 8;
# per-candidate dense 64-64-32 (+ReLU, batch norm on inputs) -> weight w_i (1 unit);
# output MET (px, py) = sum_i w_i * (px_i, py_i), with px, py = continuous features 0, 1.
# --------------------------------------------------------------------------------------
class DeepMETLike(nn.Module):
    def __init__(self, n_cont=8, vocab=(3, 8, 4), emb_dim=8, units=(64, 64, 32)):
        super().__init__()
        self.bn = nn.BatchNorm1d(n_cont)
        self.embs = nn.ModuleList(nn.Embedding(v, emb_dim) for v in vocab)
        layers, prev = [], n_cont + emb_dim * len(vocab)
        for u in units:
            layers += [nn.Linear(prev, u), nn.ReLU()]
            prev = u
        layers.append(nn.Linear(prev, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, cont, cat0, cat1, cat2):
        x = self.bn(cont.transpose(1, 2)).transpose(1, 2)
        embs = [e(c.squeeze(-1)) for e, c in zip(self.embs, (cat0, cat1, cat2))]
        w = self.mlp(torch.cat([x] + embs, dim=-1))            # [N, 4500, 1]
        return (w * cont[:, :, 0:2]).sum(dim=1)                 # [N, 2]


def deepmet_inputs(b, dev):
    n = 4500
    return (torch.randn(b, n, 8, device=dev),
            torch.randint(0, 3, (b, n, 1), device=dev),
            torch.randint(0, 8, (b, n, 1), device=dev),
            torch.randint(0, 4, (b, n, 1), device=dev))


# --------------------------------------------------------------------------------------
# ResNet-50 (He et al. 2015), bottleneck v1.5 (stride in the 3x3 conv, as torchvision),
# written out by hand so that no torchvision is needed; 3x224x224 input, 1000 classes.
# --------------------------------------------------------------------------------------
class Bottleneck(nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * 4
        self.body = nn.Sequential(
            nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        idt = self.down(x) if self.down is not None else x
        return F.relu(self.body(x) + idt)


class ResNet50(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                  nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for i in range(blocks):
                layers.append(Bottleneck(cin, width, stride if i == 0 else 1))
                cin = width * 4
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(2048, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def resnet_inputs(b, dev):
    return (torch.randn(b, 3, 224, 224, device=dev),)


MODELS = {
    "emtrkmichelid": (EmTrkMichelId, emtrk_inputs,
                      "EmTrkMichelId CNN (ProtoDUNE): input [N,1,48,48]; conv 5x5x48+ReLU; dense 128; "
                      "dense 32; heads dense 3 softmax (em/trk/none) + dense 1 sigmoid (michel)"),
    "particlenet": (ParticleNetTagger, particlenet_inputs,
                    "ParticleNet-like EdgeConv tagger (CMS ParticleNetTagger form): points [N,2,100], "
                    "features [N,20,100], mask [N,1,100], SV points [N,2,10], SV features [N,11,10], "
                    "SV mask [N,1,10]; pf/sv 1x1 conv to 32; EdgeConv k=16 (64,64,64),(128,128,128),"
                    "(256,256,256); fusion conv 384; masked mean pool; dense 256; 2 outputs; all slots occupied"),
    "deepmet": (DeepMETLike, deepmet_inputs,
                "DeepMET-like: [N,4500,8] continuous + 3 x [N,4500,1] categorical (embedding dim 8 each); "
                "per-candidate dense 64-64-32 ReLU -> weight; MET = sum w*(px,py)"),
    "resnet50": (ResNet50, resnet_inputs,
                 "ResNet-50 (bottleneck v1.5, hand-written, torchvision-equivalent layout): input [N,3,224,224]; "
                 "1000 classes"),
}


# --------------------------------------------------------------------------------------
def slug(s):
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", s.lower())).strip("-")


def cpu_model_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown-cpu"


def nvidia_driver():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return "unknown (nvidia-smi not available)"


def percentile(sorted_vals, q):
    """Linear interpolation between closest ranks (numpy's default 'linear')."""
    if len(sorted_vals) == 1:
        return sorted_vals[0]
    pos = (len(sorted_vals) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def is_oom(exc):
    msg = str(exc).lower()
    return "out of memory" in msg or "can't allocate memory" in msg or isinstance(exc, MemoryError)


def time_point(fn, sync, args):
    for _ in range(args.warmup):
        fn()
    sync()
    times = []
    t_start = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        fn()
        sync()
        t1 = time.perf_counter()
        times.append(t1 - t0)
        elapsed = t1 - t_start
        n = len(times)
        if n >= args.repeats and elapsed >= args.min_time_s:
            break
        if elapsed >= args.max_time_s and n >= args.min_repeats:
            break
        if n >= args.max_repeats:
            break
    return times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--models", default=",".join(MODELS), help="comma list of: " + ",".join(MODELS))
    ap.add_argument("--batches", default=",".join(map(str, DEFAULT_BATCHES)), help="comma list of batch sizes")
    ap.add_argument("--repeats", type=int, default=50, help="timed repetitions per point, at least (with --min-time-s)")
    ap.add_argument("--warmup", type=int, default=10, help="untimed warm-up iterations per point")
    ap.add_argument("--min-time-s", type=float, default=0.5,
                    help="keep repeating until at least this many seconds AND --repeats repetitions")
    ap.add_argument("--max-time-s", type=float, default=10.0,
                    help="stop a point after this many seconds once --min-repeats are done")
    ap.add_argument("--min-repeats", type=int, default=10, help="floor on repetitions when --max-time-s cuts a point")
    ap.add_argument("--max-repeats", type=int, default=100000, help="hard cap on repetitions per point")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (CPU); 0 = leave default")
    ap.add_argument("--tf32", action="store_true",
                    help="allow TF32 in cuDNN/cuBLAS (default: off, strict fp32)")
    ap.add_argument("--tag", default="",
                    help="optional suffix for the file name: <device>_<model>_pytorch_<tag>.csv")
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data"))
    args = ap.parse_args(argv)

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    for m in models:
        if m not in MODELS:
            ap.error("unknown model %r (choose from %s)" % (m, ", ".join(MODELS)))
    batches = [int(b) for b in args.batches.split(",") if b.strip()]
    if args.threads > 0:
        torch.set_num_threads(args.threads)

    dev = torch.device(args.device)
    prov = {}
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            sys.exit("error: --device cuda but torch.cuda.is_available() is False")
        torch.backends.cuda.matmul.allow_tf32 = args.tf32
        torch.backends.cudnn.allow_tf32 = args.tf32
        props = torch.cuda.get_device_properties(0)
        dev_name = torch.cuda.get_device_name(0)
        dev_slug = slug(dev_name)
        prov["device"] = dev_name
        prov["device_type"] = "cuda" if torch.version.hip is None else "rocm"
        prov["device_memory_bytes"] = str(props.total_memory)
        prov["compute_capability"] = "%d.%d" % (props.major, props.minor)
        prov["driver_version"] = nvidia_driver()
        prov["cuda_version"] = str(torch.version.cuda)
        if torch.version.hip is not None:
            prov["hip_version"] = str(torch.version.hip)
        prov["cudnn_version"] = str(torch.backends.cudnn.version())
        prov["cudnn_benchmark"] = str(torch.backends.cudnn.benchmark)
        prov["tf32"] = "enabled" if args.tf32 else "disabled"
        prov["host_cpu"] = cpu_model_name()

        def sync():
            torch.cuda.synchronize()
    else:
        dev_name = cpu_model_name()
        dev_slug = "cpu-" + slug(dev_name) + "-t%d" % torch.get_num_threads()
        prov["device"] = dev_name
        prov["device_type"] = "cpu"
        prov["cpu_threads"] = str(torch.get_num_threads())
        prov["cpu_logical_cores"] = str(os.cpu_count())
        prov["driver_version"] = "n/a (cpu)"
        prov["cuda_version"] = "n/a (cpu)"
        prov["mkldnn_enabled"] = str(torch.backends.mkldnn.is_available())

        def sync():
            pass

    prov["framework"] = "pytorch"
    prov["framework_version"] = torch.__version__
    prov["python_version"] = platform.python_version()
    prov["hostname"] = socket.gethostname()
    prov["source"] = "sonicsim calibration/measure/measure.py, our measurement"
    prov["command"] = " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv)
    prov["precision"] = "fp32" + (" (TF32 tensor-core math allowed)" if dev.type == "cuda" and args.tf32 else "")
    prov["repetitions"] = ("warmup %d; at least %d timed repetitions and %.3g s per point; a point stops after "
                           "%.3g s once %d are done; cap %d" % (args.warmup, args.repeats, args.min_time_s,
                                                                args.max_time_s, args.min_repeats, args.max_repeats))
    prov["timing"] = ("wall clock (time.perf_counter) around one forward pass under torch.inference_mode(), "
                      + ("followed by torch.cuda.synchronize(); " if dev.type == "cuda" else "")
                      + "inputs pre-generated on the device (no host-device copies); model.eval()")
    prov["weights"] = "random, torch.manual_seed(%d)" % SEED

    os.makedirs(args.out_dir, exist_ok=True)
    written = []
    for name in models:
        cls, make_inputs, desc = MODELS[name]
        torch.manual_seed(SEED)
        model = cls().to(dev).eval()
        nparams = sum(p.numel() for p in model.parameters())
        rows, notes = [], []
        t_model = time.perf_counter()
        for b in batches:
            try:
                with torch.inference_mode():
                    torch.manual_seed(SEED + b)
                    inputs = make_inputs(b, dev)
                    times = time_point(lambda: model(*inputs), sync, args)
                del inputs
            except (RuntimeError, MemoryError) as exc:
                if not is_oom(exc):
                    raise
                inputs = None
                if dev.type == "cuda":
                    torch.cuda.empty_cache()
                notes.append("batch %d and larger not measured: out of memory (%s)"
                             % (b, str(exc).splitlines()[0][:120]))
                print("  %s batch %d: OOM, stopping this model's sweep" % (name, b), flush=True)
                break
            s = sorted(times)
            mean = statistics.fmean(times)
            row = dict(batch_size=b, mean_s=mean, p50_s=percentile(s, 0.5), p99_s=percentile(s, 0.99),
                       stddev_s=statistics.stdev(times) if len(times) > 1 else 0.0,
                       repeats=len(times), throughput_items_per_s=b / mean)
            rows.append(row)
            print("  %-14s b=%5d mean=%.6f s p50=%.6f s p99=%.6f s n=%d thr=%.1f/s"
                  % (name, b, mean, row["p50_s"], row["p99_s"], len(times), row["throughput_items_per_s"]),
                  flush=True)
        if dev.type == "cuda":
            torch.cuda.empty_cache()
        header = dict(prov)
        header["model"] = name
        header["model_description"] = desc
        header["model_parameters"] = str(nparams)
        header["date_utc"] = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
        header["sweep_wall_s"] = "%.1f" % (time.perf_counter() - t_model)
        for i, n in enumerate(notes):
            header["note%d" % (i + 1)] = n
        path = os.path.join(args.out_dir, "%s_%s_pytorch%s.csv" % (dev_slug, name, "_" + slug(args.tag) if args.tag else ""))
        with open(path, "w") as f:
            f.write("# sonicsim calibration data v1\n")
            for k, v in header.items():
                f.write("# %s: %s\n" % (k, str(v).replace("\n", " ")))
            cols = ["batch_size", "mean_s", "p50_s", "p99_s", "stddev_s", "repeats", "throughput_items_per_s"]
            f.write(",".join(cols) + "\n")
            for r in rows:
                f.write("%d,%.9e,%.9e,%.9e,%.9e,%d,%.6e\n" % (r["batch_size"], r["mean_s"], r["p50_s"], r["p99_s"],
                                                             r["stddev_s"], r["repeats"],
                                                             r["throughput_items_per_s"]))
        written.append(path)
        print("wrote %s (%d rows)" % (path, len(rows)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
