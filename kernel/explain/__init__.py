"""The queries the window's explanations ask of the kernel (loaded when the window sends
``messages.Warm`` with their module names): provenance, autograd, storage, heatmap,
timing, derivatives, tensor text. They work on the live values, in the kernel."""
