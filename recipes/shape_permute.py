"""permute: NCHW to NHWC and back

A batch of images is a 4-D tensor. PyTorch's convolutions want NCHW: batch, channels,
height, width. Image files, matplotlib and TensorFlow use NHWC, with the channels
last. x.permute(0, 2, 3, 1) lists, for each new dimension, which old one it is: new
dimension 1 is old dimension 2 (height), and so on. permute(0, 3, 1, 2) goes back.

permute only changes the strides, like transpose: no number is copied, and the result
is not contiguous. In NHWC one pixel's channels sit next to each other: nhwc[0, 0, 1]
is the same numbers as images[0, :, 0, 1].

permute：NCHW 与 NHWC 互相转换

一批图像是一个 4 维张量。PyTorch 的卷积要求 NCHW：批、通道、高、宽。图像文件、
matplotlib 和 TensorFlow 使用 NHWC，通道放在最后。x.permute(0, 2, 3, 1) 依次
写出每个新维度对应的旧维度：新的第 1 维是旧的第 2 维（高），依此类推。
permute(0, 3, 1, 2) 再换回来。

permute 和 transpose 一样只改变步长（stride）：不复制任何数，结果也不是连续的
（contiguous）。在 NHWC 中，一个像素的各个通道挨在一起：nhwc[0, 0, 1] 和
images[0, :, 0, 1] 是同一组数。

Category: shapes
"""
import torch

# One image (N=1) with 2 channels (C) of 3 rows (H) and 4 columns (W).
images = torch.arange(24).view(1, 2, 3, 4)
nhwc = images.permute(0, 2, 3, 1)
back = nhwc.permute(0, 3, 1, 2)
print(images.shape)
print(nhwc.shape)
print(back.shape)
print(torch.equal(back, images))
print(nhwc.is_contiguous())

# The two channels of the pixel at row 0, column 1.
print(nhwc[0, 0, 1])
print(images[0, :, 0, 1])
