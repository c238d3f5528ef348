"""tril and triu: keep the lower or the upper triangle

torch.tril(x, diagonal) keeps the elements on and below a diagonal and sets the
rest to 0: element [i, j] survives when j <= i + diagonal. diagonal=0 is the main
diagonal, 1 moves the line one step up and right, -1 one step down and left.
torch.triu(x, diagonal) keeps the other side, on and above the diagonal: [i, j]
survives when j >= i + diagonal, so triu(x, 1) is strictly above the main diagonal
and tril(x) + triu(x, 1) gives x back.

Select the step lower, open the "Op explained" tab and drag the diagonal slider:
the diagonal outlined in red moves, the greyed (zeroed) region follows, and the
code changes with it. torch.tril(torch.ones(n, n)) is the causal mask of a decoder: position i may
only look at positions 0 to i.

tril 与 triu：保留下三角或上三角

torch.tril(x, diagonal) 保留某条对角线上及其下方的元素，其余置为 0：当
j <= i + diagonal 时元素 [i, j] 被保留。diagonal=0 是主对角线，1 把这条线向右上
移动一格，-1 向左下移动一格。torch.triu(x, diagonal) 保留另一侧，即对角线上及其
上方：当 j >= i + diagonal 时 [i, j] 被保留。所以 triu(x, 1) 严格位于主对角线
上方，tril(x) + triu(x, 1) 又得到 x。

选中步骤 lower，打开“运算图解”标签页，拖动 diagonal 滑块：红框标出的对角线
随之移动，灰色（被置零）的区域跟着变化，代码也一起改变。
torch.tril(torch.ones(n, n)) 就是解码器的因果掩码：位置 i 只能看到位置 0 到 i。

Category: indexing
"""
import torch

x = torch.arange(1.0, 26.0).view(5, 5)
lower = torch.tril(x, diagonal=1)

# The causal mask: ones on and below the main diagonal.
mask = torch.tril(torch.ones(5, 5))
print(lower)
print(mask)

# Below the main diagonal only, and above it only.
strictly_lower = torch.tril(x, diagonal=-1)
strictly_upper = torch.triu(x, diagonal=1)
print(strictly_lower)
print(strictly_upper)
print(torch.equal(torch.tril(x) + strictly_upper, x))
