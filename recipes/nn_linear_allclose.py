"""nn.Linear is x @ W.T + b, up to rounding: allclose and its tolerance

nn.Linear(in_features, out_features) stores weight W of shape
(out_features, in_features) and bias b of shape (out_features,), and computes
x @ W.T + b. Computing it by hand gives the same numbers, but adding the
products in another order (here: multiply elementwise, then sum) rounds
differently in float32, so torch.equal, which wants every bit, can say False.

torch.allclose(a, b) checks |a - b| <= atol + rtol * |b| for every element,
with rtol=1e-05 and atol=1e-08 by default. rtol covers large values, but an
output close to 0 gets almost no slack from it, and atol=1e-08 is smaller than
float32's rounding error on numbers of size 1 (its epsilon is about 1.2e-07).
So the default check can fail on results that are right. The largest
difference printed below shows what atol is needed: a few float32 epsilons
times the size of the terms, 1e-06 here. In float64 the same difference is
hundreds of millions of times smaller.

nn.Linear 就是 x @ W.T + b（在舍入误差范围内）：allclose 与容差

nn.Linear(in_features, out_features) 保存形状为 (out_features, in_features)
的权重 W 和形状为 (out_features,) 的偏置 b，计算 x @ W.T + b。手工计算会得到
相同的数，但如果以另一种顺序累加乘积（这里先逐元素相乘再求和），float32 的
舍入会有所不同，所以要求每一位都相同的 torch.equal 可能返回 False。

torch.allclose(a, b) 对每个元素检查 |a - b| <= atol + rtol * |b|，默认
rtol=1e-05、atol=1e-08。rtol 能照顾较大的数，但接近 0 的输出几乎得不到
余量，而 atol=1e-08 比 float32 在大小为 1 的数上的舍入误差还小（float32 的
机器精度约为 1.2e-07）。因此默认的检查可能在结果正确时失败。下面打印的
最大差值说明了需要多大的 atol：几个 float32 机器精度乘以各项的大小，这里是
1e-06。在 float64 中，同样的差值要小上亿倍。
"""
import torch
import torch.nn as nn

torch.manual_seed(1)
lin = nn.Linear(64, 8)
print(lin.weight.shape)
print(lin.bias.shape)
x = torch.randn(4, 64)
with torch.no_grad():
    y = lin(x)
    # The same formula by hand.
    by_hand = x @ lin.weight.T + lin.bias
    # The same products, added up in another order.
    by_sum = (x.unsqueeze(1) * lin.weight).sum(dim=2) + lin.bias
print(torch.allclose(y, by_hand))
print(torch.equal(y, by_sum))
largest = (y - by_sum).abs().max()
print(largest.item())
# The output nearest to zero: rtol gives it almost no slack.
print(y.abs().min().item())
print(torch.allclose(y, by_sum))
print(torch.allclose(y, by_sum, atol=1e-06))
# In float64 the rounding differences all but vanish.
lin64 = nn.Linear(64, 8, dtype=torch.float64)
x64 = x.to(torch.float64)
with torch.no_grad():
    y64 = lin64(x64)
    sum64 = (x64.unsqueeze(1) * lin64.weight).sum(dim=2) + lin64.bias
print((y64 - sum64).abs().max().item())
