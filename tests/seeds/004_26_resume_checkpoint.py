# From notes 004, block 26: bert pretrain
import torch
torch.manual_seed(0)

net = ResNet()
loss = MSE()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001)
""" 中断后，加载权重继续训练 """ 
checkpoint = torch.load("model_path/model.pth") 
current_epoch = checkpoint["epoch"] 
net.load_state_dict(checkpoint['net']) 
optimizer.load_state_dict(checkpoint['optimizer']) 
net.train()
for epoch in range(current_epoch , total_epochs):
   ...
   for x, y in dataloader:
       ...
       loss = ...
       loss.backward()
       optimizer.step()
   state_dict = {"net": net.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}
   torch.save(state_dict, "model_path/model.pth")
