"""CPU versus GPU: timing a matmul as its size grows

A matrix product of two n x n matrices takes n ** 3 multiply-adds: 262 thousand for
n = 64, 1.1 billion for n = 1024, 8.6 billion for n = 2048. The recipe builds the four
products; it prints only their shapes, because a time is different on every run and
every machine, while a recipe's output must be the same each time.

To time them, select a product step (p64, p256, p1024 or p2048), open the Ops panel
and press "Time it". The lab runs the step again and again on every device it finds,
the CPU and each GPU, with torch.utils.benchmark.Timer, which warms up first, picks
how many runs to measure, and synchronises the GPU so that the time is the work, not
just its launch. It shows the median time of one run on each device.

What to expect: for n = 64 the CPU wins, because starting work on a GPU costs a few
microseconds whatever its size. As n grows the CPU time grows like n ** 3, while a
GPU keeps thousands of cores busy; by n = 1024 it is many times faster. Without a GPU,
the table has one row: watch the CPU time grow about 8 times for each doubling of n.
Outside the lab, the same measurement is a few lines of Python:

    from torch.utils.benchmark import Timer
    t = Timer("a @ a", globals={"a": torch.randn(1024, 1024, device="cuda")})
    print(t.blocked_autorange().median)

CPU 与 GPU：随着规模增长给矩阵乘法计时

两个 n x n 矩阵相乘需要 n ** 3 次乘加：n = 64 时是 26 万次，n = 1024 时是 11 亿
次，n = 2048 时是 86 亿次。这个配方构造了四个乘积，但只打印它们的形状，因为耗时
每次运行、每台机器都不一样，而配方的输出必须每次都相同。

要计时，请选中一个乘积步骤（p64、p256、p1024 或 p2048），打开“运算”面板，点击
“计时”。实验室会在它找到的每个设备（CPU 和每块 GPU）上反复运行这一步，使用的是
torch.utils.benchmark.Timer：它会先预热，自己决定测量多少次，并对 GPU 做同步，
使测得的时间是真正的计算时间，而不只是启动计算的时间。表格显示每个设备上运行一次
的中位时间。

预期结果：n = 64 时 CPU 更快，因为无论计算量多大，在 GPU 上启动一次计算都要花
几微秒。随着 n 增大，CPU 的时间按 n ** 3 增长，而 GPU 能让成千上万个核心同时工作；
到 n = 1024 时，它要快很多倍。没有 GPU 时表格只有一行：观察 n 每翻一倍，CPU 的
时间大约增加到 8 倍。在实验室之外，同样的测量只需要几行 Python：

    from torch.utils.benchmark import Timer
    t = Timer("a @ a", globals={"a": torch.randn(1024, 1024, device="cuda")})
    print(t.blocked_autorange().median)

Category: training
"""
import torch

torch.manual_seed(0)
a64 = torch.randn(64, 64)
a256 = torch.randn(256, 256)
a1024 = torch.randn(1024, 1024)
a2048 = torch.randn(2048, 2048)

# Select one of these and press "Time it" in the Ops panel.
p64 = a64 @ a64
p256 = a256 @ a256
p1024 = a1024 @ a1024
p2048 = a2048 @ a2048
print(p64.shape)
print(p256.shape)
print(p1024.shape)
print(p2048.shape)
