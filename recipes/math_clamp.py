"""clamp: keep every value inside [min, max]

x.clamp(min, max) replaces values below min by min and values above max by max;
values in between pass unchanged. Either bound may be left out: clamp(min=0) is the
same as ReLU, and clamp(max=1) caps from above only.

Uses: keeping probabilities away from exactly 0 and 1 before a log, cutting off
outliers, keeping pixel values in [0, 1] after an augmentation. The gradient of clamp
is 1 inside the range and 0 where a value was clamped: those elements stop learning.

clamp：把每个值限制在 [min, max] 之内

x.clamp(min, max) 把小于 min 的值换成 min，把大于 max 的值换成 max，中间的值
保持不变。两个边界都可以省略其中一个：clamp(min=0) 就是 ReLU，clamp(max=1) 只从
上方截断。

用途：在取对数之前让概率不恰好等于 0 或 1，截掉离群值，在数据增强之后把像素值
保持在 [0, 1] 之内。clamp 的梯度在范围内为 1，在被截断的地方为 0：这些元素就不再
学习了。

Category: math
"""
import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.7, 3.0])
unit = x.clamp(0.0, 1.0)
relu_like = x.clamp(min=0.0)
capped = torch.clamp(x, max=1.0)
print(unit)
print(relu_like)
print(capped)
print(torch.equal(relu_like, torch.relu(x)))
