"""Gradients through while and if: autograd follows the path that ran

f(a) doubles b = 2a until its norm reaches 1000, then keeps b if its sum is positive
and takes 100 * b otherwise. How often the loop runs, and which branch is taken,
depend on the value of a. Autograd never reads the Python code: it records the tensor
operations as they run, and backward goes back through exactly those.

For a = 1.5410 (the first randn after seed 0), b starts at 3.0820 and needs 9
doublings to pass 1000: d = 1577.98. b.sum() is positive, so c = b. On this path
f(a) = 1024 * a, and a.grad is 1024. d / a gives the same number, and a.grad == d / a
prints tensor(True).

For a = -0.5 the loop runs 10 times, to b = -1024, and the else branch multiplies by
100: d = -102400 = 204800 * a, and a.grad is 204800. The same function, another path,
another graph, another gradient. Between the values of a where the number of
doublings changes, f is a constant times a, so its gradient is d / a. (a = 0 would
loop forever: its norm stays 0.)

经过 while 和 if 的梯度：autograd 沿着实际执行的路径求导

f(a) 先令 b = 2a，然后不断把 b 翻倍，直到它的范数达到 1000；如果 b 的元素和为正就
保留 b，否则取 100 * b。循环执行几次、走哪一个分支，都取决于 a 的值。autograd 从不
读 Python 代码：它在运行时记录实际执行的张量运算，backward 正是沿着这些运算反向
传播。

a = 1.5410（设置种子 0 后的第一个 randn）时，b 从 3.0820 开始，翻倍 9 次才超过
1000：d = 1577.98。b.sum() 为正，所以 c = b。在这条路径上 f(a) = 1024 * a，
a.grad 就是 1024。d / a 得到同样的数，a.grad == d / a 打印 tensor(True)。

a = -0.5 时循环执行 10 次，得到 b = -1024，else 分支再乘以 100：
d = -102400 = 204800 * a，a.grad 是 204800。同一个函数，路径不同，计算图不同，
梯度也不同。在翻倍次数不变的范围内，f 等于一个常数乘以 a，所以它的梯度就是 d / a。
（a = 0 会让循环永远不停：它的范数一直是 0。）

Category: autograd
"""
import torch

torch.manual_seed(0)


def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()
print(a)
print(d)
print(a.grad)
print(d / a)
print(a.grad == d / a)

a = torch.tensor(-0.5, requires_grad=True)
d = f(a)
d.backward()
print(d)
print(a.grad)
