"""A shape error, caught: try / except RuntimeError as e

When shapes do not fit, torch raises a RuntimeError whose message names them.
try / except RuntimeError as e catches it, print(e) shows the message, and the
script goes on to the next line instead of stopping.

nn.Linear(100, 50) transforms only the last dimension: x of shape [10, 20, 100] gives
[10, 20, 50]. Given [10, 100, 20], the last dimension is 20, not 100. Linear treats
the input as 10 * 100 = 1000 rows of 20 and multiplies them by its transposed weight,
100 x 50, so torch says: mat1 and mat2 shapes cannot be multiplied (1000x20 and
100x50). permute(0, 2, 1) moves the 100 to the end, and the call works again.

X = torch.rand(3, 4, 5) holds 60 numbers. view(3 * 4, 5) fits; view(3 * 4, 4) asks
for 48 and fails with: shape '[12, 4]' is invalid for input of size 60. With -1,
view works the size out itself: view(3 * 4, -1) is [12, 5].

Catch only the error you expect, and print it: a bare except would hide real bugs
as well. Uncaught, the error stops the script with exit code 1, as the gallery's
error lessons do on purpose.

捕获形状错误：try / except RuntimeError as e

形状对不上时，torch 会抛出 RuntimeError，错误信息中会写出相关的形状。
try / except RuntimeError as e 捕获这个错误，print(e) 显示错误信息，程序接着执行
下一行，而不会停下来。

nn.Linear(100, 50) 只变换最后一个维度：形状为 [10, 20, 100] 的 x 得到
[10, 20, 50]。如果输入是 [10, 100, 20]，最后一维是 20 而不是 100。Linear 把输入
看成 10 * 100 = 1000 行、每行 20 个数，再乘以转置后的 100 x 50 权重，所以 torch
报错：mat1 and mat2 shapes cannot be multiplied (1000x20 and 100x50)。
permute(0, 2, 1) 把 100 移到最后，调用就又能成功了。

X = torch.rand(3, 4, 5) 有 60 个数。view(3 * 4, 5) 没问题；view(3 * 4, 4) 要求 48
个数，报错：shape '[12, 4]' is invalid for input of size 60。写成 -1 时，view 会自己
算出这个尺寸：view(3 * 4, -1) 是 [12, 5]。

只捕获你预料到的错误，并把它打印出来：不加类型的 except 会把真正的 bug 也一起藏起来。
如果不捕获，错误会让脚本停下并以退出码 1 结束，课程库中的错误课就是故意这样做的。

Category: shapes
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

linear = nn.Linear(100, 50)
x = torch.randn(10, 20, 100)
print(linear(x).shape)

x_wrong = torch.randn(10, 100, 20)
try:
    linear(x_wrong)
except RuntimeError as e:
    print(e)
print(linear(x_wrong.permute(0, 2, 1)).shape)

X = torch.rand(3, 4, 5)
print(X.view(3 * 4, 5).shape)
try:
    X.view(3 * 4, 4)
except RuntimeError as e:
    print(e)
print(X.view(3 * 4, -1).shape)
