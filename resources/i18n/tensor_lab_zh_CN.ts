<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>&amp;File</source>
        <extracomment>Languages offered in View &gt; Language, by locale name, in their own words. Top-level menus in menu bar order.</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Kernel</source>
        <translation>内核(&amp;K)</translation>
    </message>
    <message>
        <source>Cop&amp;y As</source>
        <translation>复制为(&amp;Y)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Start an empty recipe</source>
        <translation>新建一个空的配方</translation>
    </message>
    <message>
        <source>New &amp;Training...</source>
        <translation>新建训练(&amp;T)...</translation>
    </message>
    <message>
        <source>Write a short training recipe from a few choices: data, model, initialisation, optimizer, clipping; the Training tab watches its loop</source>
        <translation>根据几个选择写出一个简短的训练配方：数据、模型、初始化、优化器、梯度裁剪；“训练”标签页会实时显示它的循环</translation>
    </message>
    <message>
        <source>&amp;Open...</source>
        <translation>打开(&amp;O)...</translation>
    </message>
    <message>
        <source>Open a recipe (.py); it is read, never run. You can also drop a recipe file on the window.</source>
        <translation>打开配方（.py）：只读取，从不运行。也可以把配方文件拖放到窗口上。</translation>
    </message>
    <message>
        <source>&amp;Gallery</source>
        <translation>课程库(&amp;G)</translation>
    </message>
    <message>
        <source>Browse the lessons by category, search them, and open one</source>
        <translation>按类别浏览课程、搜索课程并打开其中一课</translation>
    </message>
    <message>
        <source>Open &amp;Welcome Recipe</source>
        <translation>打开欢迎配方(&amp;W)</translation>
    </message>
    <message>
        <source>Open the recipe Tensor Lab starts with</source>
        <translation>打开 Tensor Lab 启动时的配方</translation>
    </message>
    <message>
        <source>Rese&amp;t to the Original</source>
        <translation>恢复原始内容(&amp;T)</translation>
    </message>
    <message>
        <source>Open the recipe&apos;s file again, discarding every change since it was opened or saved: a class&apos;s experiments are undone</source>
        <translation>重新打开配方文件，丢弃自打开或保存以来的所有修改：课堂上做的实验都会被撤销</translation>
    </message>
    <message>
        <source>Show the Recipe&apos;s &amp;Folder</source>
        <translation>显示配方所在的文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>Open the folder the recipe runs in, where the files it writes land: a saved recipe&apos;s own folder; for a new recipe or a gallery lesson, the lab&apos;s work folder; on a server, its folder there</source>
        <translation>打开食谱运行所在的文件夹，即它写出的文件所在之处：已保存食谱的所在文件夹；新食谱或课程库课程则为实验室的工作文件夹；在服务器上，则为那里的文件夹</translation>
    </message>
    <message>
        <source>&amp;Download from the Server...</source>
        <translation>从服务器下载(&amp;D)...</translation>
    </message>
    <message>
        <source>List the files the recipe wrote in its folder on the server (Kernel &gt; Run On), and save one on this computer</source>
        <translation>列出食谱在服务器上其文件夹中写出的文件（内核 &gt; 运行于），并将其中一个保存到本机</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the recipe as a Python script; a gallery lesson is saved as a copy of your own</source>
        <translation>把配方保存为 Python 脚本；课程库里的课程会另存为你自己的副本</translation>
    </message>
    <message>
        <source>Save &amp;As...</source>
        <translation>另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>Save the recipe under a new name</source>
        <translation>以新名称保存配方</translation>
    </message>
    <message>
        <source>Lesson as &amp;HTML Page...</source>
        <translation>课程导出为 HTML 页面(&amp;H)...</translation>
    </message>
    <message>
        <source>One web page with the lesson text, the figures shown now, the code and the output, to hand out after class</source>
        <translation>一个网页，包含课程文字、当前显示的图、代码和输出，可在课后分发</translation>
    </message>
    <message>
        <source>&amp;Heatmap as PNG or SVG...</source>
        <translation>热力图导出为 PNG 或 SVG(&amp;H)...</translation>
    </message>
    <message>
        <source>Save the selected tensor&apos;s heatmap</source>
        <translation>保存所选张量的热力图</translation>
    </message>
    <message>
        <source>Tensor as &amp;CSV...</source>
        <translation>张量导出为 CSV(&amp;C)...</translation>
    </message>
    <message>
        <source>Save the selected tensor&apos;s values as CSV</source>
        <translation>将所选张量的值保存为 CSV</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close Tensor Lab</source>
        <translation>关闭 Tensor Lab</translation>
    </message>
    <message>
        <source>Move Step &amp;Up</source>
        <translation>上移步骤(&amp;U)</translation>
    </message>
    <message>
        <source>Move the selected step one place earlier</source>
        <translation>将所选步骤前移一位</translation>
    </message>
    <message>
        <source>Move Step &amp;Down</source>
        <translation>下移步骤(&amp;D)</translation>
    </message>
    <message>
        <source>Move the selected step one place later</source>
        <translation>将所选步骤后移一位</translation>
    </message>
    <message>
        <source>&amp;Delete Step</source>
        <translation>删除步骤(&amp;D)</translation>
    </message>
    <message>
        <source>Delete the selected step; steps that read it will show an error</source>
        <translation>删除所选步骤；读取它的步骤将显示错误</translation>
    </message>
    <message>
        <source>Tensor as &amp;Python</source>
        <translation>张量（Python 代码）(&amp;P)</translation>
    </message>
    <message>
        <source>Copy the selected tensor as torch.tensor([...]), ready to paste into a recipe</source>
        <translation>将所选张量复制为 torch.tensor([...])，可直接粘贴到配方中</translation>
    </message>
    <message>
        <source>Tensor as &amp;CSV</source>
        <translation>张量（CSV）(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected tensor&apos;s values as comma-separated numbers</source>
        <translation>将所选张量的值复制为逗号分隔的数字</translation>
    </message>
    <message>
        <source>Tensor as &amp;Heatmap Image</source>
        <translation>张量（热力图图片）(&amp;H)</translation>
    </message>
    <message>
        <source>Copy the plane shown as a heatmap picture</source>
        <translation>将当前显示的平面复制为热力图图片</translation>
    </message>
    <message>
        <source>&amp;Step&apos;s Code</source>
        <translation>步骤代码(&amp;S)</translation>
    </message>
    <message>
        <source>Copy the selected step as one line of Python</source>
        <translation>将所选步骤复制为一行 Python 代码</translation>
    </message>
    <message>
        <source>Whole &amp;Recipe&apos;s Code</source>
        <translation>整个配方的代码(&amp;R)</translation>
    </message>
    <message>
        <source>Copy the whole recipe as Python</source>
        <translation>将整个配方复制为 Python 代码</translation>
    </message>
    <message>
        <source>&amp;Run Again</source>
        <translation>重新运行(&amp;R)</translation>
    </message>
    <message>
        <source>Evaluate the whole recipe again (random steps without a seed give new values)</source>
        <translation>重新计算整个配方（未设种子的随机步骤会得到新值）</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the recipe&apos;s run: it gets a KeyboardInterrupt, and the values of the steps that finished stay</source>
        <translation>停止配方的运行：配方会收到 KeyboardInterrupt，已完成步骤的值会保留</translation>
    </message>
    <message>
        <source>&amp;Restart the Kernel</source>
        <translation>重启内核(&amp;R)</translation>
    </message>
    <message>
        <source>End the kernel, with everything the recipe started, and run the recipe again in a fresh one (where Run On says)</source>
        <translation>结束内核及食谱启动的所有进程，并在新内核中重新运行食谱（在“运行于”所选之处）</translation>
    </message>
    <message>
        <source>&amp;Previous Step</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>Select the step before the selected one (PgUp in presenter mode)</source>
        <translation>选择当前步骤的前一步（演示模式下按 PgUp）</translation>
    </message>
    <message>
        <source>&amp;Next Step</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Select the next step: it is highlighted in the code and shown in the views (PgDown in presenter mode)</source>
        <translation>选择下一步：它会在代码中高亮并在各视图中显示（演示模式下按 PgDown）</translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Big text, cells and plot lines for a projector; hides the editing panels; PgDown and PgUp step through the recipe</source>
        <translation>为投影仪放大文字、单元格和曲线；隐藏编辑面板；用 PgDown 和 PgUp 逐步浏览配方</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Make text, cells and plot lines bigger</source>
        <translation>放大文字、单元格和曲线</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Make text, cells and plot lines smaller</source>
        <translation>缩小文字、单元格和曲线</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>Back to normal size (the presenter size in presenter mode)</source>
        <translation>恢复正常大小（演示模式下为演示大小）</translation>
    </message>
    <message>
        <source>Use this colour theme and remember it</source>
        <translation>使用此配色主题并记住</translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <source>White on black with bright colours: reads best on a projector</source>
        <translation>黑底白字配鲜明颜色：在投影仪上最清晰</translation>
    </message>
    <message>
        <source>Show Tensor Lab in this language now, and remember it</source>
        <translation>立即以此语言显示 Tensor Lab，并记住这一选择</translation>
    </message>
    <message>
        <source>&amp;Docs for the Selected Op</source>
        <translation>所选运算的文档(&amp;D)</translation>
    </message>
    <message>
        <source>Explain the op picked in the builder or op panel, or the selected step&apos;s op, with its signature, an example and a link to PyTorch&apos;s documentation</source>
        <translation>解释在构建器或运算面板中选中的运算（或所选步骤的运算），包括签名、示例以及 PyTorch 官方文档链接</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Put every panel back where it started</source>
        <translation>把所有面板放回初始位置</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>List every keyboard shortcut</source>
        <translation>列出所有键盘快捷键</translation>
    </message>
    <message>
        <source>&amp;About Tensor Lab</source>
        <translation>关于 Tensor Lab(&amp;A)</translation>
    </message>
    <message>
        <source>Versions of Tensor Lab, Python, PyTorch, Qt and the libraries</source>
        <translation>Tensor Lab、Python、PyTorch、Qt 及各库的版本</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>The most used actions; View shows or hides it</source>
        <translation>最常用的操作；可在“视图”菜单中显示或隐藏</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Undo the last change to the recipe</source>
        <translation>撤销对配方的上一次修改</translation>
    </message>
    <message>
        <source>Redo the change just undone</source>
        <translation>重做刚撤销的修改</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <extracomment>Where the toolbar&apos;s groups are separated.</extracomment>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>Show or hide the {0} panel</source>
        <translation>显示或隐藏“{0}”面板</translation>
    </message>
    <message>
        <source>&amp;Toolbar</source>
        <translation>工具栏(&amp;T)</translation>
    </message>
    <message>
        <source>Show or hide the toolbar</source>
        <translation>显示或隐藏工具栏</translation>
    </message>
    <message>
        <source>&lt;b&gt;Tensor Lab&lt;/b&gt; {0}&lt;br&gt;A desktop lab for exploring PyTorch.&lt;br&gt;&lt;br&gt;&lt;table&gt;{1}&lt;/table&gt;</source>
        <translation>&lt;b&gt;Tensor Lab&lt;/b&gt; {0}&lt;br&gt;一个探索 PyTorch 的桌面实验室。&lt;br&gt;&lt;br&gt;&lt;table&gt;{1}&lt;/table&gt;</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <source>not found by the kernel</source>
        <translation>内核未找到</translation>
    </message>
    <message>
        <source>About Tensor Lab</source>
        <translation>关于 Tensor Lab</translation>
    </message>
    <message>
        <source>Tensor Lab plot</source>
        <translation>Tensor Lab 图表</translation>
    </message>
    <message>
        <source>Save Plot</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>Save Plot as PNG or SVG...</source>
        <translation>将图表保存为 PNG 或 SVG...</translation>
    </message>
    <message>
        <source>Write this plot to an image (PNG) or a drawing (SVG)</source>
        <translation>将此图表写入图片（PNG）或矢量图（SVG）</translation>
    </message>
    <message>
        <source>Save as CSV</source>
        <translation>保存为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>The kernel has stopped: run the recipe again.</source>
        <translation>内核已停止：请重新运行配方。</translation>
    </message>
    <message>
        <source>Select a step whose value is a tensor first.</source>
        <translation>请先选择一个值为张量的步骤。</translation>
    </message>
    <message>
        <source>Copied the tensor as Python.</source>
        <translation>已将张量复制为 Python 代码。</translation>
    </message>
    <message>
        <source>Copied the values as CSV.</source>
        <translation>已将值复制为 CSV。</translation>
    </message>
    <message>
        <source>Copied the heatmap as an image.</source>
        <translation>已将热力图复制为图片。</translation>
    </message>
    <message>
        <source>Select a step first.</source>
        <translation>请先选择一个步骤。</translation>
    </message>
    <message>
        <source>Copied the step&apos;s code.</source>
        <translation>已复制该步骤的代码。</translation>
    </message>
    <message>
        <source>Copied the whole recipe.</source>
        <translation>已复制整个配方。</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Heatmap of {0}</source>
        <translation>{0} 的热力图</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>图</translation>
    </message>
    <message>
        <source>The recipe</source>
        <translation>配方</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Made with Tensor Lab</source>
        <translation>由 Tensor Lab 生成</translation>
    </message>
    <message>
        <source>Export Lesson as HTML</source>
        <translation>将课程导出为 HTML</translation>
    </message>
    <message>
        <source>Web pages (*.html);;All files (*)</source>
        <translation>网页 (*.html);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Exported the lesson to {0}</source>
        <translation>已将课程导出到 {0}</translation>
    </message>
    <message>
        <source>Copy as Python</source>
        <translation>复制为 Python 代码</translation>
    </message>
    <message>
        <source>Copy the tensor as torch.tensor([...]), ready to paste into a recipe</source>
        <translation>将张量复制为 torch.tensor([...])，可直接粘贴到配方中</translation>
    </message>
    <message>
        <source>Copy as CSV</source>
        <translation>复制为 CSV</translation>
    </message>
    <message>
        <source>Copy the values as comma-separated numbers</source>
        <translation>将值复制为逗号分隔的数字</translation>
    </message>
    <message>
        <source>Copy Heatmap Image</source>
        <translation>复制热力图图片</translation>
    </message>
    <message>
        <source>Copy the plane as a heatmap picture</source>
        <translation>将该平面复制为热力图图片</translation>
    </message>
    <message>
        <source>Save Heatmap as PNG or SVG...</source>
        <translation>将热力图保存为 PNG 或 SVG...</translation>
    </message>
    <message>
        <source>Write the heatmap to an image or a drawing</source>
        <translation>将热力图写入图片或矢量图</translation>
    </message>
    <message>
        <source>enter the shape, for example 2, 3</source>
        <extracomment>The translation context of the messages (the unnamed one, as the form&apos;s other texts).</extracomment>
        <translation>输入形状，例如 2, 3</translation>
    </message>
    <message>
        <source>an entry between two commas is empty</source>
        <translation>两个逗号之间的项为空</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not an integer</source>
        <translation>“{0}”不是整数</translation>
    </message>
    <message>
        <source>{0} is negative: a size counts elements</source>
        <translation>{0} 是负数：尺寸表示元素个数</translation>
    </message>
    <message>
        <source>{0} is too large</source>
        <translation>{0} 太大</translation>
    </message>
    <message>
        <source>{0} does not fit in 64 bits</source>
        <translation>{0} 超出 64 位范围</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a number</source>
        <extracomment>Fields that only matter for some settings; the others are disabled (still shown). What a QSpinBox can hold (a C int). How long typing in a field pauses before the edit counts, in milliseconds: the recipe follows the keys, but not every one of them (&quot;500&quot; is one edit, not three).</extracomment>
        <translation>“{0}”不是数字</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not allowed here: use numbers, [ ], commas, True/False, nan and inf</source>
        <translation>这里不允许“{0}”：请使用数字、[ ]、逗号、True/False、nan 和 inf</translation>
    </message>
    <message>
        <source>nested more than {0} levels deep</source>
        <translation>嵌套超过 {0} 层</translation>
    </message>
    <message>
        <source>more than {0} numbers</source>
        <translation>超过 {0} 个数字</translation>
    </message>
    <message>
        <source>enter a number or nested lists, for example [[1, 2], [3, 4]]</source>
        <translation>输入一个数字或嵌套列表，例如 [[1, 2], [3, 4]]</translation>
    </message>
    <message>
        <source>cannot read this: write numbers separated by commas, each row in [ ]</source>
        <translation>无法读取：请写用逗号分隔的数字，每行放在 [ ] 中</translation>
    </message>
    <message>
        <source>ragged rows: row {0} {1}, but row {2} {3}</source>
        <translation>各行长度不一：第 {0} 行{1}，但第 {2} 行{3}</translation>
    </message>
    <message>
        <source>is a number</source>
        <translation>是一个数字</translation>
    </message>
    <message>
        <source>has 1 item</source>
        <translation>有 1 项</translation>
    </message>
    <message>
        <source>has {0} items</source>
        <translation>有 {0} 项</translation>
    </message>
    <message>
        <source>default: {0}</source>
        <extracomment>The dtypes offered in dtype menus; a recipe&apos;s other dtypes are added when shown. What a QSpinBox can hold (a C int); the lowest value is kept to mean &quot;default&quot;.</extracomment>
        <translation>默认值：{0}</translation>
    </message>
    <message>
        <source>for example {0}</source>
        <translation>例如 {0}</translation>
    </message>
    <message>
        <source>{0} — not on the kernel&apos;s machine</source>
        <translation>{0} — 内核所在的机器上没有</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a tensor in the recipe</source>
        <translation>“{0}”不是配方中的张量</translation>
    </message>
    <message>
        <source>enter a tensor name or a number</source>
        <translation>输入张量名称或数字</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>the recipe has no tensor yet: create one first</source>
        <translation>配方中还没有张量：请先创建一个</translation>
    </message>
    <message>
        <source>Every run kept: tick the ones to overlay</source>
        <translation>保留的每一次运行：勾选要叠加显示的</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Take the selected run out of the comparison</source>
        <translation>把选中的运行从比较中移除</translation>
    </message>
    <message>
        <source>Each run&apos;s loss (log scale); right-click to export</source>
        <translation>每次运行的损失（对数刻度）；右键可导出</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Loss of each run</source>
        <translation>每次运行的损失</translation>
    </message>
    <message>
        <source>What differed in the recipes that made the runs: the knobs by name, other lines by their text</source>
        <translation>产生这些运行的配方有哪些不同：参数按名称列出，其他行按原文列出</translation>
    </message>
    <message>
        <source>The loop at line {0} of the recipe run {1}</source>
        <translation>第 {1} 次运行时配方第 {0} 行的循环</translation>
    </message>
    <message>
        <source>Run {0}: {1} steps</source>
        <translation>运行 {0}：{1} 步</translation>
    </message>
    <message>
        <source>, loss {0}</source>
        <translation>，损失 {0}</translation>
    </message>
    <message>
        <source>, loss NaN</source>
        <translation>，损失 NaN</translation>
    </message>
    <message>
        <source>Run {0}</source>
        <translation>运行 {0}</translation>
    </message>
    <message>
        <source>not in this run&apos;s recipe</source>
        <translation>这次运行的配方中没有</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>use a finite number</source>
        <translation>请使用有限数</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a whole number</source>
        <translation>“{0}”不是整数</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Choose a CSV file of numbers</source>
        <translation>选择一个数字 CSV 文件</translation>
    </message>
    <message>
        <source>Open CSV Data</source>
        <translation>打开 CSV 数据</translation>
    </message>
    <message>
        <source>{0} (not present: cpu is used)</source>
        <translation>{0}（本机没有：改用 cpu）</translation>
    </message>
    <message>
        <source>{0}.</source>
        <translation>{0}。</translation>
    </message>
    <message>
        <source>Allowed: {0} to {1}.</source>
        <translation>允许范围：{0} 到 {1}。</translation>
    </message>
    <message>
        <source>Saved in the recipe as training {0}.</source>
        <translation>在配方中保存为 training {0}。</translation>
    </message>
    <message>
        <source>{0} {1}</source>
        <extracomment>Two sentences of a tooltip, one after the other (a space in English).</extracomment>
        <translation>{0}{1}</translation>
    </message>
    <message>
        <source>Why the last edit could not be used; the recipe keeps its previous settings until it can</source>
        <translation>上一次修改为何无法使用；在可以使用之前，配方保持原有设置</translation>
    </message>
    <message>
        <source>Live plots of the run; drag to pan, wheel to zoom, right-click for options and export</source>
        <extracomment>Seconds between updates of every plot but the loss (it follows each frame). Most layers the bars name one by one (more: numbered, every few).</extracomment>
        <translation>运行的实时图表；拖动平移，滚轮缩放，右键打开选项和导出</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Layer output std (now)</source>
        <translation>层输出标准差（当前）</translation>
    </message>
    <message>
        <source>Layer output std</source>
        <translation>各层输出标准差</translation>
    </message>
    <message>
        <source>Layer gradient norm</source>
        <translation>各层梯度范数</translation>
    </message>
    <message>
        <source>Decision boundary</source>
        <translation>决策边界</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>train, smoothed</source>
        <translation>训练（平滑）</translation>
    </message>
    <message>
        <source>Layer output std at step {0}</source>
        <translation>第 {0} 步的层输出标准差</translation>
    </message>
    <message>
        <source>an unsaved recipe</source>
        <translation>一个未保存的配方</translation>
    </message>
    <message>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>Tensor Lab did not close properly last time.

Restore the changes to {0}, autosaved at {1}?</source>
        <translation>Tensor Lab 上次没有正常关闭。

要恢复对 {0} 的修改吗？（自动保存于 {1}）</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Open the autosaved recipe, with its changes not yet saved</source>
        <translation>打开自动保存的配方，其中的修改尚未保存</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Forget the autosaved changes</source>
        <translation>丢弃自动保存的修改</translation>
    </message>
    <message>
        <source>Test edit</source>
        <translation>测试编辑</translation>
    </message>
    <message>
        <source>Each layer&apos;s weights (left) and gradients (right) over the steps: the line is the median; the bands hold the middle 38%, 68% and 86% of the values, and all of them</source>
        <extracomment>Layers drawn at most (two plots each); the Histogram page shows any one of the rest. Samples of a run during which every view is fitted at each one.</extracomment>
        <translation>每层的权重（左）和梯度（右）随步数的变化：线是中位数；色带分别包含中间 38%、68%、86% 的值，以及全部的值</translation>
    </message>
    <message>
        <source>{0}: weights</source>
        <translation>{0}：权重</translation>
    </message>
    <message>
        <source>{0}: gradients</source>
        <translation>{0}：梯度</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>The first {0} of {1} layers; the Histogram page shows any one of them.</source>
        <translation>{1} 层中的前 {0} 层；“直方图”页可以显示其中任意一层。</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>The layer whose weights and gradients are sampled and shown</source>
        <translation>对其权重和梯度进行采样并显示的层</translation>
    </message>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Left: the latest sample of the layer&apos;s weights and gradients. Right: their spread over time (bands: min–max, 7–93%, 16–84%, 31–69%; line: median)</source>
        <translation>左：该层权重和梯度的最新采样。右：它们随时间的分布（色带：最小–最大、7–93%、16–84%、31–69%；线：中位数）</translation>
    </message>
    <message>
        <source>Weights (now)</source>
        <translation>权重（当前）</translation>
    </message>
    <message>
        <source>Weights over time</source>
        <translation>权重随时间变化</translation>
    </message>
    <message>
        <source>Gradients (now)</source>
        <translation>梯度（当前）</translation>
    </message>
    <message>
        <source>Gradients over time</source>
        <translation>梯度随时间变化</translation>
    </message>
    <message>
        <source>not made yet</source>
        <extracomment>The columns, in order. The data role of a parameter&apos;s or buffer&apos;s row: its dotted path in the module (``conv1.weight``); a module&apos;s row holds its own path (``features.0``). The data role saying what a row is: &quot;module&quot;, &quot;parameter&quot; or &quot;buffer&quot;.</extracomment>
        <translation>尚未创建</translation>
    </message>
    <message>
        <source>{0}: a {1}</source>
        <translation>{0}：一个 {1}</translation>
    </message>
    <message>
        <source>Not called yet: its shapes show once a step calls it</source>
        <translation>尚未调用：某一步调用它之后才显示形状</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>Double-click to open {0} in the tensor viewer</source>
        <translation>双击在张量查看器中打开 {0}</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Input shape</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>dtype</translation>
    </message>
    <message>
        <source>Param #</source>
        <translation>参数数</translation>
    </message>
    <message>
        <source>Trainable</source>
        <translation>可训练</translation>
    </message>
    <message>
        <source>The module&apos;s name in its parent, or the parameter&apos;s or buffer&apos;s</source>
        <translation>模块在其父模块中的名字，或参数、缓冲区的名字</translation>
    </message>
    <message>
        <source>The module&apos;s class; parameter or buffer</source>
        <translation>模块的类；或参数、缓冲区</translation>
    </message>
    <message>
        <source>The shapes of the tensors its last call was given (positional)</source>
        <translation>最后一次调用时传入的张量（位置参数）的形状</translation>
    </message>
    <message>
        <source>The shapes of the tensors its last call returned</source>
        <translation>最后一次调用返回的张量的形状</translation>
    </message>
    <message>
        <source>A parameter&apos;s or buffer&apos;s shape</source>
        <translation>参数或缓冲区的形状</translation>
    </message>
    <message>
        <source>A parameter&apos;s or buffer&apos;s dtype</source>
        <translation>参数或缓冲区的 dtype</translation>
    </message>
    <message>
        <source>Elements in its parameters, its submodules&apos; included (a shared parameter once)</source>
        <translation>参数中的元素个数，包括子模块的（共享的参数只计一次）</translation>
    </message>
    <message>
        <source>Whether its parameters train (requires_grad)</source>
        <translation>它的参数是否参与训练（requires_grad）</translation>
    </message>
    <message>
        <source>partly</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>Run &amp;On</source>
        <translation>运行于(&amp;O)</translation>
    </message>
    <message>
        <source>Run on: {0}</source>
        <translation>运行于：{0}</translation>
    </message>
    <message>
        <source>Run on: this computer</source>
        <translation>运行于：本机</translation>
    </message>
    <message>
        <source>Where the recipe runs: this computer, or a server you reach with ssh (its Python, torch and GPUs)</source>
        <translation>食谱在哪里运行：本机，或你用 ssh 连接的服务器（使用它的 Python、torch 和 GPU）</translation>
    </message>
    <message>
        <source>This &amp;Computer</source>
        <translation>本机(&amp;C)</translation>
    </message>
    <message>
        <source>Run recipes in a kernel on this computer</source>
        <translation>在本机的内核中运行食谱</translation>
    </message>
    <message>
        <source>Run recipes on {0} over ssh, with {1} there</source>
        <translation>通过 ssh 在 {0} 上运行食谱，使用那里的 {1}</translation>
    </message>
    <message>
        <source>&amp;Add a Server…</source>
        <translation>添加服务器(&amp;A)…</translation>
    </message>
    <message>
        <source>Add a server you reach with ssh; its Python and torch are checked first</source>
        <translation>添加一台用 ssh 连接的服务器；会先检查它的 Python 和 torch</translation>
    </message>
    <message>
        <source>&amp;Forget {0}</source>
        <translation>移除 {0}(&amp;F)</translation>
    </message>
    <message>
        <source>Take this server off the list and run here again</source>
        <translation>从列表中移除此服务器，并回到本机运行</translation>
    </message>
    <message>
        <source>Add a Server</source>
        <translation>添加服务器</translation>
    </message>
    <message>
        <source>user@host:port, or a Host of ~/.ssh/config</source>
        <translation>用户@主机:端口，或 ~/.ssh/config 中的 Host</translation>
    </message>
    <message>
        <source>The server, as you would give it to ssh: your keys, agent, ~/.ssh/config and jump hosts apply</source>
        <translation>服务器，写法与交给 ssh 的相同：你的密钥、agent、~/.ssh/config 和跳板机都适用</translation>
    </message>
    <message>
        <source>The python on the server that has torch, such as python3 or /opt/conda/bin/python</source>
        <translation>服务器上装有 torch 的 python，例如 python3 或 /opt/conda/bin/python</translation>
    </message>
    <message>
        <source>Recipes will run there, in ~/.local/share/tensor-lab/work; nothing is installed.</source>
        <translation>食谱将在那里的 ~/.local/share/tensor-lab/work 中运行；不会安装任何东西。</translation>
    </message>
    <message>
        <source>Connecting to the server</source>
        <translation>正在连接服务器</translation>
    </message>
    <message>
        <source>Check and Add</source>
        <translation>检查并添加</translation>
    </message>
    <message>
        <source>Connect to the server, check its Python and torch, and add it</source>
        <translation>连接服务器，检查它的 Python 和 torch，然后添加</translation>
    </message>
    <message>
        <source>&amp;Server:</source>
        <translation>服务器(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Python there:</source>
        <translation>那里的 Python(&amp;P)：</translation>
    </message>
    <message>
        <source>Connecting to {0}…</source>
        <translation>正在连接 {0}…</translation>
    </message>
    <message>
        <source>Download from the Server</source>
        <translation>从服务器下载</translation>
    </message>
    <message>
        <source>Asking the server for the recipe&apos;s files…</source>
        <translation>正在向服务器询问食谱的文件…</translation>
    </message>
    <message>
        <source>The files in the folder the recipe runs in on the server, the newest first</source>
        <translation>食谱在服务器上运行所在文件夹中的文件，最新的在前</translation>
    </message>
    <message>
        <source>&amp;Download…</source>
        <translation>下载(&amp;D)…</translation>
    </message>
    <message>
        <source>Save the file picked on this computer</source>
        <translation>把所选文件保存到本机</translation>
    </message>
    <message>
        <source>No kernel runs: run the recipe first.</source>
        <translation>没有正在运行的内核：请先运行食谱。</translation>
    </message>
    <message>
        <source>{0} on {1}</source>
        <translation>{1} 上的 {0}</translation>
    </message>
    <message>
        <source>The recipe wrote no file there yet.</source>
        <translation>食谱尚未在那里写出任何文件。</translation>
    </message>
    <message>
        <source>Save {0} as</source>
        <translation>将 {0} 另存为</translation>
    </message>
    <message>
        <source>Downloading {0}…</source>
        <translation>正在下载 {0}…</translation>
    </message>
    <message>
        <source>Could not write {0}: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <source>Saved {0} as {1}</source>
        <translation>已将 {0} 保存为 {1}</translation>
    </message>
</context>
<context>
    <name>ActivationView</name>
    <message>
        <source>{0}: output {1}</source>
        <extracomment>The transparent line between two tiles, in pixels of the tiles.</extracomment>
        <translation>{0}：输出 {1}</translation>
    </message>
    <message>
        <source>sample {0} of {1}</source>
        <translation>第 {0} 个样本，共 {1} 个</translation>
    </message>
    <message>
        <source>The sample of the batch shown (the first {0} of its {1} are kept)</source>
        <translation>显示的是批次中的哪个样本（保留了它的 {1} 个中的前 {0} 个）</translation>
    </message>
    <message>
        <source>The sample of the batch shown</source>
        <translation>显示的是批次中的哪个样本</translation>
    </message>
    <message>
        <source>The layer picked in the tree, and the shape of its last call&apos;s output (its first tensor)</source>
        <translation>在树中选中的层，以及它最后一次调用的输出（第一个张量）的形状</translation>
    </message>
    <message>
        <source>The hovered cell: its channel, index and value</source>
        <translation>鼠标所指的单元格：它的通道、索引和值</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>feature</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Pick a layer in the tree to see its output for one sample.</source>
        <translation>在树中选一层，查看它对一个样本的输出。</translation>
    </message>
    <message>
        <source>Its output could not be read: {0}</source>
        <translation>无法读取它的输出：{0}</translation>
    </message>
    <message>
        <source>Not called yet: its output shows once the recipe calls it.</source>
        <translation>尚未调用：配方调用它之后才显示输出。</translation>
    </message>
    <message>
        <source>Its last output was not kept before it was picked (too large, or inside a training loop): it shows from its next call.</source>
        <translation>选中它之前，它最后的输出没有保留（太大，或在训练循环中）：从下一次调用起显示。</translation>
    </message>
    <message>
        <source>One sample of its output is too large to keep.</source>
        <translation>它的一个样本的输出太大，无法保留。</translation>
    </message>
    <message>
        <source>Its output is not a tensor ({0}).</source>
        <translation>它的输出不是张量（{0}）。</translation>
    </message>
    <message>
        <source>Its last call had an empty batch: no sample to show.</source>
        <translation>它最后一次调用的批次为空：没有样本可显示。</translation>
    </message>
    <message>
        <source>{0} values are NaN or infinite (left blank)</source>
        <translation>{0} 个值是 NaN 或无穷大（留空）</translation>
    </message>
    <message>
        <source>every {0}th row and column shown</source>
        <translation>每隔 {0} 行和列显示一次</translation>
    </message>
    <message>
        <source>One tile per channel of the sample&apos;s output, all on the colour bar&apos;s scale (its min to its max)</source>
        <translation>样本输出的每个通道一块，都使用色条的刻度（从最小值到最大值）</translation>
    </message>
    <message>
        <source>The sample&apos;s output as a heatmap: rows are its first dimension, columns its second</source>
        <translation>样本输出的热图：行是第一个维度，列是第二个维度</translation>
    </message>
    <message>
        <source>The sample&apos;s output: a bar per feature</source>
        <translation>样本的输出：每个特征一根柱</translation>
    </message>
    <message>
        <source>How the sample&apos;s output values spread: counts per bin</source>
        <translation>样本输出值的分布：每个区间的计数</translation>
    </message>
    <message>
        <source>The picked layer&apos;s output for one sample of its last batch</source>
        <translation>选中的层对其最后一个批次中一个样本的输出</translation>
    </message>
    <message>
        <source>[{0}, {1}] = {2:.4g}</source>
        <translation>[{0}, {1}] = {2:.4g}</translation>
    </message>
    <message>
        <source>channel {0} [{1}, {2}] = {3:.4g}</source>
        <translation>通道 {0} [{1}, {2}] = {3:.4g}</translation>
    </message>
</context>
<context>
    <name>AttentionView</name>
    <message>
        <source>Call:</source>
        <extracomment>Heads drawn side by side in a row, at most. The calls are asked for once it is on screen, after each run</extracomment>
        <translation>调用：</translation>
    </message>
    <message>
        <source>Sample:</source>
        <translation>样本：</translation>
    </message>
    <message>
        <source>The attention call whose weights are shown: an nn.MultiheadAttention module, or a call of F.scaled_dot_product_attention and its line</source>
        <translation>显示其权重的注意力调用：一个 nn.MultiheadAttention 模块，或一次 F.scaled_dot_product_attention 调用及其所在行</translation>
    </message>
    <message>
        <source>Which sample of the call&apos;s batch</source>
        <translation>该调用的批次中的哪个样本</translation>
    </message>
    <message>
        <source>One heatmap per head: row i is query position i, column j key position j; each row sums to 1 (softmax, before dropout)</source>
        <translation>每个头一张热图：第 i 行是查询位置 i，第 j 列是键位置 j；每一行的和为 1（softmax，dropout 之前）</translation>
    </message>
    <message>
        <source>head {0}</source>
        <translation>头 {0}</translation>
    </message>
    <message>
        <source>query position</source>
        <translation>查询位置</translation>
    </message>
    <message>
        <source>key position</source>
        <translation>键位置</translation>
    </message>
    <message>
        <source>No attention call yet: an nn.MultiheadAttention module or F.scaled_dot_product_attention called by the recipe shows here once it has run.</source>
        <translation>还没有注意力调用：配方调用的 nn.MultiheadAttention 模块或 F.scaled_dot_product_attention 运行之后会显示在这里。</translation>
    </message>
    <message>
        <source>{0}: {1} heads, {2} queries by {3} keys; sample {4} of the {5} kept (the call&apos;s batch: {6}).</source>
        <translation>{0}：{1} 个头，{2} 个查询乘 {3} 个键；保留的 {5} 个样本中的第 {4} 个（该调用的批大小：{6}）。</translation>
    </message>
</context>
<context>
    <name>AutogradPanel</name>
    <message>
        <source>Whose backward graph is drawn</source>
        <translation>绘制谁的反向传播图</translation>
    </message>
    <message>
        <source>Saved tensors</source>
        <translation>保存的张量</translation>
    </message>
    <message>
        <source>Also draw the tensors each backward function saved during the forward pass (orange, dashed edges)</source>
        <translation>同时绘制每个反向函数在前向传播中保存的张量（橙色虚线边）</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Zoom to show the whole graph</source>
        <translation>缩放以显示整个图</translation>
    </message>
    <message>
        <source>Node colours. Arrows point the way backward() walks: from the result down to the leaves, whose .grad it fills.</source>
        <translation>节点颜色。箭头指向 backward() 的遍历方向：从结果一直到叶子节点，并填充它们的 .grad。</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>grad_fn</source>
        <translation>grad_fn</translation>
    </message>
    <message>
        <source>AccumulateGrad</source>
        <translation>AccumulateGrad</translation>
    </message>
    <message>
        <source>leaf</source>
        <translation>叶子</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>cut off</source>
        <translation>已截断</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向传播</translation>
    </message>
    <message>
        <source>Jacobian</source>
        <translation>雅可比矩阵</translation>
    </message>
    <message>
        <source>The clicked node or tensor: is_leaf, requires_grad, grad_fn and .grad</source>
        <translation>所点击的节点或张量：is_leaf、requires_grad、grad_fn 和 .grad</translation>
    </message>
    <message>
        <source>Run backward, or zero the gradients</source>
        <translation>运行 backward，或将梯度清零</translation>
    </message>
    <message>
        <source>Jacobian and Hessian of this tensor with respect to another</source>
        <translation>此张量相对于另一个张量的雅可比矩阵和黑塞矩阵</translation>
    </message>
    <message>
        <source>An autograd step failed: torch&apos;s message, the usual cause and the fix</source>
        <translation>一个 autograd 步骤失败：torch 的消息、常见原因和修正方法</translation>
    </message>
    <message>
        <source>What the clicked node is</source>
        <translation>所点击的节点是什么</translation>
    </message>
    <message>
        <source>The recipe tensor these facts are about</source>
        <translation>这些信息所描述的配方张量</translation>
    </message>
    <message>
        <source>A leaf was created, not computed from tensors that require grad. Only leaves get .grad by default.</source>
        <translation>叶子张量是直接创建的，而不是由需要梯度的张量计算得到的。默认只有叶子张量会得到 .grad。</translation>
    </message>
    <message>
        <source>Whether autograd records operations on this tensor</source>
        <translation>autograd 是否记录对此张量的运算</translation>
    </message>
    <message>
        <source>The backward function that made this tensor; None for leaves and for tensors autograd does not track</source>
        <translation>产生此张量的反向函数；叶子张量和 autograd 不跟踪的张量为 None</translation>
    </message>
    <message>
        <source>Whether this non-leaf keeps its .grad (retain_grad())</source>
        <translation>此非叶子张量是否保留 .grad（retain_grad()）</translation>
    </message>
    <message>
        <source>The gradient backward stored here; backward adds to it</source>
        <translation>backward 存放在这里的梯度；backward 会累加到它上面</translation>
    </message>
    <message>
        <source>Why .grad is None</source>
        <translation>为什么 .grad 是 None</translation>
    </message>
    <message>
        <source>retain_grad()</source>
        <translation>retain_grad()</translation>
    </message>
    <message>
        <source>Keep .grad for this non-leaf tensor: adds (or removes) the step name.retain_grad() just after it</source>
        <translation>为此非叶子张量保留 .grad：在它后面添加（或删除）步骤 name.retain_grad()</translation>
    </message>
    <message>
        <source>The values of .grad</source>
        <translation>.grad 的值</translation>
    </message>
    <message>
        <source>What this backward function saved during the forward pass</source>
        <translation>此反向函数在前向传播中保存了什么</translation>
    </message>
    <message>
        <source>The gradient argument: how much each element of the tensor counts</source>
        <translation>gradient 参数：张量每个元素所占的权重</translation>
    </message>
    <message>
        <source>Why a tensor with several elements needs a gradient argument</source>
        <translation>为什么多元素张量需要 gradient 参数</translation>
    </message>
    <message>
        <source>retain_graph=True</source>
        <translation>retain_graph=True</translation>
    </message>
    <message>
        <source>Keep the graph&apos;s saved tensors so backward can run through it again; without it a second backward fails</source>
        <translation>保留计算图中保存的张量，以便再次运行 backward；否则第二次 backward 会失败</translation>
    </message>
    <message>
        <source>Add the step name.backward(...) to the recipe: gradients are ADDED to each leaf&apos;s .grad</source>
        <translation>向配方添加步骤 name.backward(...)：梯度会累加到每个叶子张量的 .grad 上</translation>
    </message>
    <message>
        <source>Zero grads</source>
        <translation>梯度清零</translation>
    </message>
    <message>
        <source>Add x.grad.zero_() for every leaf that has a gradient, so the next backward starts from 0</source>
        <translation>为每个有梯度的叶子张量添加 x.grad.zero_()，使下一次 backward 从 0 开始</translation>
    </message>
    <message>
        <source>The step Backward adds</source>
        <translation>“反向传播”添加的步骤</translation>
    </message>
    <message>
        <source>gradient</source>
        <translation>gradient</translation>
    </message>
    <message>
        <source>The input tensor X: the drawn tensor is recomputed from it by the recipe&apos;s steps</source>
        <translation>输入张量 X：所绘制的张量由配方的步骤从它重新计算</translation>
    </message>
    <message>
        <source>torch.autograd.functional.jacobian: d(element i of the tensor) / d(element j of X), both flattened</source>
        <translation>torch.autograd.functional.jacobian：d(张量的第 i 个元素) / d(X 的第 j 个元素)，两者均展平</translation>
    </message>
    <message>
        <source>Hessian</source>
        <translation>黑塞矩阵</translation>
    </message>
    <message>
        <source>torch.autograd.functional.hessian: second derivatives of a one-element tensor with respect to every pair of elements of X</source>
        <translation>torch.autograd.functional.hessian：单元素张量对 X 的每一对元素的二阶导数</translation>
    </message>
    <message>
        <source>What the matrix holds</source>
        <translation>矩阵包含什么</translation>
    </message>
    <message>
        <source>The matrix; hover a cell for its full value</source>
        <translation>矩阵；将鼠标悬停在单元格上可查看完整值</translation>
    </message>
    <message>
        <source>with respect to</source>
        <translation>相对于</translation>
    </message>
    <message>
        <source>Retain grad of {0}</source>
        <translation>保留 {0} 的梯度</translation>
    </message>
    <message>
        <source>Stop retaining grad of {0}</source>
        <translation>不再保留 {0} 的梯度</translation>
    </message>
    <message>
        <source>Backward from {0}</source>
        <translation>从 {0} 反向传播</translation>
    </message>
    <message>
        <source>Zero gradients</source>
        <translation>梯度清零</translation>
    </message>
    <message>
        <source>The kernel could not say: {0}</source>
        <translation>内核无法给出结果：{0}</translation>
    </message>
    <message>
        <source>Select a step that makes a tensor to see its backward graph.</source>
        <translation>选择一个产生张量的步骤以查看其反向传播图。</translation>
    </message>
    <message>
        <source>{0} does not require grad: autograd records no graph for it.</source>
        <translation>{0} 不需要梯度：autograd 不为它记录计算图。</translation>
    </message>
    <message>
        <source>none named</source>
        <translation>无命名张量</translation>
    </message>
    <message>
        <source>and {0} more</source>
        <translation>以及另外 {0} 个</translation>
    </message>
    <message>
        <source>Backward graph of {0}: {1} nodes; leaves: {2}.</source>
        <translation>{0} 的反向传播图：{1} 个节点；叶子：{2}。</translation>
    </message>
    <message>
        <source>(Only the first {0} nodes are drawn.)</source>
        <translation>（只绘制前 {0} 个节点。）</translation>
    </message>
    <message>
        <source>Saved for backward: {0}</source>
        <translation>为反向传播保存：{0}</translation>
    </message>
    <message>
        <source>This node is an intermediate result with no name in the recipe.</source>
        <translation>此节点是中间结果，在配方中没有名称。</translation>
    </message>
    <message>
        <source>Select a tensor that requires grad.</source>
        <translation>请选择一个需要梯度的张量。</translation>
    </message>
    <message>
        <source>Adds the step: {0}</source>
        <translation>添加步骤：{0}</translation>
    </message>
    <message>
        <source>Select a tensor computed from another floating point tensor.</source>
        <translation>请选择一个由另一个浮点张量计算得到的张量。</translation>
    </message>
    <message>
        <source>Jacobian: row i, column j is d {0}[i] / d {1}[j], both flattened in row-major order ({2} × {3}).</source>
        <translation>雅可比矩阵：第 i 行第 j 列为 d {0}[i] / d {1}[j]，两者均按行优先顺序展平（{2} × {3}）。</translation>
    </message>
    <message>
        <source>Hessian: row i, column j is d² {0} / d {1}[i] d {1}[j], {1} flattened in row-major order ({2} × {3}).</source>
        <translation>黑塞矩阵：第 i 行第 j 列为 d² {0} / d {1}[i] d {1}[j]，{1} 按行优先顺序展平（{2} × {3}）。</translation>
    </message>
    <message>
        <source>Cannot compute it: {0}</source>
        <translation>无法计算：{0}</translation>
    </message>
    <message>
        <source>line {0}</source>
        <translation>第 {0} 行</translation>
    </message>
    <message>
        <source>step {0}</source>
        <translation>步骤 {0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Why:&lt;/b&gt; {0}</source>
        <translation>&lt;b&gt;原因：&lt;/b&gt;{0}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fix:&lt;/b&gt; {0}</source>
        <translation>&lt;b&gt;修正：&lt;/b&gt;{0}</translation>
    </message>
</context>
<context>
    <name>BroadcastExtra</name>
    <message>
        <source>Shapes lined up from the right; 1→n marks a dimension stretched to size n</source>
        <extracomment>Operators and ops whose operands broadcast against each other.</extracomment>
        <translation>形状从右侧对齐；1→n 表示某个维度被拉伸到大小 n</translation>
    </message>
    <message>
        <source>Broadcasting</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>{0}  (a number)</source>
        <translation>{0}  （一个数字）</translation>
    </message>
    <message>
        <source>stretched</source>
        <translation>已拉伸</translation>
    </message>
    <message>
        <source>dim {0}</source>
        <translation>维度 {0}</translation>
    </message>
    <message>
        <source>result  {0}</source>
        <translation>结果  {0}</translation>
    </message>
    <message>
        <source>Lined up from the right, each pair of sizes must be equal, or one of them 1. The red column breaks that rule, so the shapes cannot broadcast.</source>
        <translation>从右侧对齐后，每一对尺寸必须相等，或其中一个为 1。红色的列违反了这条规则，因此这些形状无法广播。</translation>
    </message>
    <message>
        <source>Lined up from the right, a size-1 (or missing) dimension is stretched to the other size: its values are reused along it, without copying.</source>
        <translation>从右侧对齐后，大小为 1（或缺失）的维度会被拉伸到另一方的大小：沿该维度重复使用其值，而不复制。</translation>
    </message>
    <message>
        <source>The shapes already match: nothing is stretched.</source>
        <translation>形状已经匹配：没有维度被拉伸。</translation>
    </message>
</context>
<context>
    <name>BuilderPanel</name>
    <message>
        <source>The torch function that creates the tensor.</source>
        <translation>创建张量的 torch 函数。</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>The variable the new tensor is assigned to.</source>
        <translation>新张量赋给的变量。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The Python line the step will be, as saved in the recipe file.</source>
        <translation>此步骤对应的一行 Python 代码，与保存在配方文件中的一致。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Append this step to the recipe and select it.</source>
        <translation>将此步骤追加到配方末尾并选中它。</translation>
    </message>
    <message>
        <source>Update selected</source>
        <translation>更新所选步骤</translation>
    </message>
    <message>
        <source>Use a seed</source>
        <translation>使用随机种子</translation>
    </message>
    <message>
        <source>Put torch.manual_seed(N) before the first random step, so random tensors come out the same on every run.</source>
        <translation>在第一个随机步骤之前加上 torch.manual_seed(N)，使随机张量每次运行都相同。</translation>
    </message>
    <message>
        <source>The seed: any non-negative integer.</source>
        <translation>随机种子：任意非负整数。</translation>
    </message>
    <message>
        <source>Random seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Add {0}</source>
        <translation>添加 {0}</translation>
    </message>
    <message>
        <source>Update {0}</source>
        <translation>更新 {0}</translation>
    </message>
    <message>
        <source>Remove seed</source>
        <translation>移除随机种子</translation>
    </message>
    <message>
        <source>Seed {0}</source>
        <translation>随机种子 {0}</translation>
    </message>
    <message>
        <source>Give the tensor a name.</source>
        <translation>请给张量命名。</translation>
    </message>
    <message>
        <source>No creation step is selected.</source>
        <translation>没有选中创建步骤。</translation>
    </message>
    <message>
        <source>Fix the marked fields to see the code.</source>
        <translation>修正标记的字段后即可看到代码。</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is the selected step: Update changes it; give a new name to add another.</source>
        <translation>“{0}”是所选步骤：“更新”会修改它；换个新名称即可添加另一个。</translation>
    </message>
    <message>
        <source>Select a creation step in the recipe to update it.</source>
        <translation>在配方中选择一个创建步骤以更新它。</translation>
    </message>
    <message>
        <source>Replace the selected step with this name and call.</source>
        <translation>用此名称和调用替换所选步骤。</translation>
    </message>
    <message>
        <source>{0} failed: {1}: {2}</source>
        <translation>{0} 失败：{1}：{2}</translation>
    </message>
    <message>
        <source>The selected step, {0}, is not made by a creation function: this form makes a new tensor, it does not show that step.</source>
        <translation>所选步骤 {0} 不是由创建函数生成的：此表单用于创建新张量，并不显示该步骤。</translation>
    </message>
</context>
<context>
    <name>ClampHistogramExtra</name>
    <message>
        <source>How many values fall in each range, before clamp (blue) and after (orange)</source>
        <translation>clamp 之前（蓝色）和之后（橙色）落在各区间的值的个数</translation>
    </message>
    <message>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>Values before and after</source>
        <translation>之前与之后的值</translation>
    </message>
    <message>
        <source>{0} values {1} {2} became {2}</source>
        <translation>{0} 个{1} {2} 的值变成了 {2}</translation>
    </message>
    <message>
        <source>below</source>
        <translation>低于</translation>
    </message>
    <message>
        <source>above</source>
        <translation>高于</translation>
    </message>
    <message>
        <source>Give clamp a min or a max (a number) to see where values are cut.</source>
        <translation>给 clamp 一个 min 或 max（数字），即可看到值在哪里被截断。</translation>
    </message>
</context>
<context>
    <name>CodePane</name>
    <message>
        <source>The recipe as Python: exactly what Save writes, and it runs with plain &apos;python&apos;. Type or paste code here: the recipe runs again once the text reads as Python.</source>
        <extracomment>Milliseconds from the last key to the text becoming the recipe. Above this many characters the colours follow at the commit, not at every key, and are worked out off the GUI thread (Pygments lexes about 50,000 characters a second: a recipe of 5,000 lines froze the window for a second at each key, and when opened).</extracomment>
        <translation>以 Python 代码显示的配方：与“保存”写出的内容完全相同，可以直接用 &apos;python&apos; 运行。可以在这里输入或粘贴代码：文字能被读作 Python 后，配方就会重新运行。</translation>
    </message>
    <message>
        <source>Why the text typed is not the recipe yet: it runs once Python can read it</source>
        <translation>输入的文字为什么还没有成为配方：Python 能读懂它之后就会运行</translation>
    </message>
    <message>
        <source>Line {0}: </source>
        <translation>第 {0} 行：</translation>
    </message>
    <message>
        <source>{0}{1}. Nothing runs until the code reads as Python.</source>
        <translation>{0}{1}。代码能被读作 Python 之前，什么都不会运行。</translation>
    </message>
    <message>
        <source>Edit code</source>
        <translation>编辑代码</translation>
    </message>
    <message>
        <source>An edit elsewhere replaced the code you were typing, which was not Python yet. What you typed is on the clipboard.</source>
        <translation>别处的一次编辑替换了你正在输入、还不是 Python 的代码。你输入的内容已放到剪贴板上。</translation>
    </message>
</context>
<context>
    <name>DiagonalExtra</name>
    <message>
        <source>The diagonal parameter: 0 is the main diagonal, positive moves it up and right, negative down and left. Changes the step.</source>
        <translation>diagonal 参数：0 为主对角线，正数向右上移动，负数向左下移动。会修改该步骤。</translation>
    </message>
    <message>
        <source>Diagonal</source>
        <translation>对角线</translation>
    </message>
    <message>
        <source>diagonal = {0}</source>
        <translation>diagonal = {0}</translation>
    </message>
    <message>
        <source>on and below</source>
        <translation>及其下方</translation>
    </message>
    <message>
        <source>on and above</source>
        <translation>及其上方</translation>
    </message>
    <message>
        <source>{0} keeps the elements {1} the diagonal outlined in red (j {2} i + diagonal) and sets the grey ones to 0.</source>
        <translation>{0} 保留红框对角线{1}的元素（j {2} i + diagonal），并把灰色元素置为 0。</translation>
    </message>
    <message>
        <source>Change diagonal of {0}</source>
        <translation>修改 {0} 的 diagonal</translation>
    </message>
</context>
<context>
    <name>DocsPanel</name>
    <message>
        <source>What the selected op or function does, from Tensor Lab&apos;s op catalogue. The link opens PyTorch&apos;s documentation.</source>
        <translation>所选运算或函数的作用，来自 Tensor Lab 的运算目录。链接会打开 PyTorch 官方文档。</translation>
    </message>
    <message>
        <source>Pick an op, a creation function or a step, or press F1.</source>
        <translation>选择一个运算、创建函数或步骤，或按 F1。</translation>
    </message>
    <message>
        <source>The panel follows what you pick</source>
        <translation>此面板随你的选择而变化</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>签名</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Official documentation</source>
        <translation>官方文档</translation>
    </message>
    <message>
        <source>The operator {0} does the same.</source>
        <translation>运算符 {0} 的作用相同。</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <source>This file used the old training format (a settings block and a pasted engine); it was converted to a plain training loop. Save to keep the new form.</source>
        <extracomment>What ``Document.open`` says of a file it converted (``convert_old``); the views translate it in the ``Document`` context.</extracomment>
        <translation>此文件使用旧的训练格式（一个设置块加一段粘贴进来的引擎代码）；它已被转换为普通的训练循环。保存即可保留新的形式。</translation>
    </message>
</context>
<context>
    <name>EmptyPage</name>
    <message>
        <source>This recipe has no training loop yet.</source>
        <translation>这个配方还没有训练循环。</translation>
    </message>
    <message>
        <source>Any loop that calls loss.backward() is a training loop: when the recipe runs, this tab plots its loss, learning rate, and each layer&apos;s output std and gradient norm, live, and lets you pause it, step it and change its learning rate. Write one, or start from a lesson:</source>
        <translation>任何调用 loss.backward() 的循环都是训练循环：配方运行时，这个标签页实时绘制它的损失、学习率，以及每一层输出的标准差和梯度范数，还可以暂停、单步执行、修改学习率。自己写一个，或者从一课开始：</translation>
    </message>
    <message>
        <source>New training…</source>
        <translation>新建训练…</translation>
    </message>
    <message>
        <source>Write a short training recipe from a few choices: data, model, initialisation, optimizer, clipping</source>
        <translation>根据几个选择写出一个简短的训练配方：数据、模型、初始化、优化器、梯度裁剪</translation>
    </message>
    <message>
        <source>Training lessons in the gallery:</source>
        <translation>示例库中的训练课程：</translation>
    </message>
    <message>
        <source>Open the lesson {0}</source>
        <translation>打开课程 {0}</translation>
    </message>
</context>
<context>
    <name>GalleryPanel</name>
    <message>
        <source>Search: title, text or op (gather, 梯度)</source>
        <translation>搜索：标题、正文或操作（gather、梯度）</translation>
    </message>
    <message>
        <source>Show only the lessons whose title, lesson text (English or Chinese), category or ops contain every word typed here</source>
        <translation>只显示标题、课程正文（英文或中文）、类别或操作包含这里输入的每个词的课程</translation>
    </message>
    <message>
        <source>The lessons, by category. Double-click one (or press Enter) to open it.</source>
        <translation>按类别列出的课程。双击（或按 Enter）打开一课。</translation>
    </message>
    <message>
        <source>Reading the lessons…</source>
        <translation>正在读取课程…</translation>
    </message>
    <message>
        <source>How many lessons the list shows</source>
        <translation>列表中显示的课程数</translation>
    </message>
    <message>
        <source>The selected lesson&apos;s text, as the Lesson panel will show it</source>
        <translation>所选课程的正文，与课程面板中显示的一样</translation>
    </message>
    <message>
        <source>The selected lesson&apos;s recipe file, as it is on disk</source>
        <translation>所选课程的配方文件，即磁盘上的原样内容</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>What the lesson explains</source>
        <translation>这一课讲解的内容</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>The recipe&apos;s Python code</source>
        <translation>配方的 Python 代码</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open the selected lesson (asks first when the open recipe has unsaved changes)</source>
        <translation>打开所选课程（如果当前配方有未保存的修改，会先询问）</translation>
    </message>
    <message>
        <source>Reset to the Original</source>
        <translation>恢复原始内容</translation>
    </message>
    <message>
        <source>Open the recipe&apos;s file again, discarding every change made since it was opened: the class&apos;s experiments are undone</source>
        <translation>重新打开配方文件，丢弃自打开以来的所有修改：课堂上做的实验都会被撤销</translation>
    </message>
    <message>
        <source>Start here</source>
        <translation>从这里开始</translation>
    </message>
    <message>
        <source>Creating tensors</source>
        <translation>创建张量</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Indexing</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>Math</source>
        <translation>数学运算</translation>
    </message>
    <message>
        <source>Autograd</source>
        <translation>自动求导</translation>
    </message>
    <message>
        <source>nn modules</source>
        <translation>nn 模块</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Lessons about {0}</source>
        <translation>关于 {0} 的课程</translation>
    </message>
    <message>
        <source>Error lesson: its last step fails on purpose.</source>
        <translation>错误课：它的最后一步是故意出错的。</translation>
    </message>
    <message>
        <source>Trains a network: open it and use the Training tab.</source>
        <translation>训练一个网络：打开它并使用“训练”标签页。</translation>
    </message>
    <message>
        <source>Ops: {0}</source>
        <translation>操作：{0}</translation>
    </message>
    <message>
        <source>*Pick a lesson to see its text and code.*</source>
        <translation>*选择一课以查看它的正文和代码。*</translation>
    </message>
    <message>
        <source>The file cannot be read: {0}</source>
        <translation>无法读取文件：{0}</translation>
    </message>
    <message>
        <source>{0} of {1} lessons match</source>
        <translation>{1} 课中有 {0} 课匹配</translation>
    </message>
    <message>
        <source>{0} lessons</source>
        <translation>{0} 课</translation>
    </message>
    <message>
        <source>Not recipes, left out: {0}</source>
        <translation>不是配方，已略过：{0}</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <source>The backward graph: click a node to inspect it. The mouse wheel zooms, dragging pans. Arrows point the way backward() walks, from the result down to the leaves.</source>
        <extracomment>Fill colour of each node kind (light, so the dark text reads on any theme).</extracomment>
        <translation>反向传播图：点击节点可查看详情。滚轮缩放，拖动平移。箭头指向 backward() 的遍历方向，从结果一直到叶子节点。</translation>
    </message>
    <message>
        <source>cut</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>saved {0}: {1}</source>
        <translation>保存的 {0}：{1}</translation>
    </message>
    <message>
        <source>Click to inspect.</source>
        <translation>点击查看详情。</translation>
    </message>
</context>
<context>
    <name>HeatmapView</name>
    <message>
        <source>The hovered cell&apos;s index in the plane and its value</source>
        <translation>鼠标所在单元格在平面中的索引及其值</translation>
    </message>
    <message>
        <source>The full image could not be drawn: {message}</source>
        <translation>无法绘制完整图像：{message}</translation>
    </message>
    <message>
        <source>mean of [{row}:{row_end}, {col}:{col_end}] = {value}</source>
        <translation>[{row}:{row_end}, {col}:{col_end}] 的均值 = {value}</translation>
    </message>
    <message>
        <source>[{row}, {col}] = {value}</source>
        <translation>[{row}, {col}] = {value}</translation>
    </message>
</context>
<context>
    <name>Kernel</name>
    <message>
        <source>The kernel ended unexpectedly.</source>
        <extracomment>Where a transport cannot be woken (``Transport.wakes``: Windows&apos; pipes), the longest a command waits for the reader.</extracomment>
        <translation>内核意外结束。</translation>
    </message>
    <message>
        <source>The kernel ended with exit code {0}.</source>
        <translation>内核已结束，退出码为 {0}。</translation>
    </message>
    <message>
        <source>The kernel ended with signal {0}.</source>
        <translation>内核因信号 {0} 而结束。</translation>
    </message>
    <message>
        <source>A new run replaced this one.</source>
        <translation>新的运行取代了这次运行。</translation>
    </message>
    <message>
        <source>The kernel was restarted.</source>
        <translation>内核已重新启动。</translation>
    </message>
    <message>
        <source>The kernel could not start.</source>
        <translation>内核无法启动。</translation>
    </message>
    <message>
        <source>The kernel speaks version {0} of the protocol and this window version {1}, so the kernel was ended.</source>
        <extracomment>Every session&apos;s run ids, from one count. Held by whoever acts on the kernel&apos;s state below: the reader thread, except while it waits for the kernel; ``run`` on the window&apos;s thread, for an idle one. Why the last kernel could not start, in one line (&quot;&quot; when it did or no one said: a server that cannot be reached says, ``app.link.ssh.Unreachable``). The devices of the kernel&apos;s machine, as its last kernel said (``devices``). Its torch build, as it said with its devices; None until a kernel has said.</extracomment>
        <translation>内核使用第 {0} 版协议，而此窗口使用第 {1} 版，因此已结束该内核。</translation>
    </message>
    <message>
        <source>The kernel could not start: {0}</source>
        <translation>内核无法启动：{0}</translation>
    </message>
    <message>
        <source>The run went past its time limit of {0} s.</source>
        <translation>运行超出了 {0} 秒的时间限制。</translation>
    </message>
    <message>
        <source>The run was stopped.</source>
        <translation>运行已停止。</translation>
    </message>
    <message>
        <source>The kernel did not stop within {0} ms of its KeyboardInterrupt (the recipe caught it, or went on after it), so it was ended.</source>
        <translation>内核在收到 KeyboardInterrupt 后 {0} 毫秒内没有停止（配方捕获了它，或在它之后继续运行），因此已被结束。</translation>
    </message>
    <message>
        <source>The kernel did not stop within {0} ms (a C++ operation cannot be interrupted), so it was ended.</source>
        <translation>内核未在 {0} 毫秒内停止（C++ 运算无法被中断），因此已被结束。</translation>
    </message>
    <message>
        <source>The kernel&apos;s pipe was corrupted ({0}), so the kernel was replaced.</source>
        <translation>内核的管道已损坏（{0}），因此内核已被替换。</translation>
    </message>
    <message>
        <source>The recipe needed more memory than its budget of {0}, so the kernel was replaced.</source>
        <translation>配方所需内存超出了 {0} 的预算，因此内核已被替换。</translation>
    </message>
    <message>
        <source>The connection to {0} was lost: {1}</source>
        <extracomment>How long a connection may take to say what its server has, in seconds. How long ``kill`` waits for the watcher to end the kernel and leave. The packages the server imports from the zip: all the kernel runs.</extracomment>
        <translation>与 {0} 的连接已断开：{1}</translation>
    </message>
    <message>
        <source>The connection to {0} was lost.</source>
        <translation>与 {0} 的连接已断开。</translation>
    </message>
</context>
<context>
    <name>KernelStatus</name>
    <message>
        <source>The kernel is running the recipe&apos;s code</source>
        <extracomment>A run shows its busy line once it has lasted this long, in seconds.</extracomment>
        <translation>内核正在运行配方的代码</translation>
    </message>
    <message>
        <source>What the kernel runs now, and for how long; or how its last run ended</source>
        <translation>内核当前正在运行的内容及已用时间；或上一次运行是如何结束的</translation>
    </message>
    <message>
        <source>Stop the run (Ctrl+.): the recipe gets a KeyboardInterrupt; the values of finished steps stay</source>
        <translation>停止运行（Ctrl+.）：配方会收到 KeyboardInterrupt；已完成步骤的值会保留</translation>
    </message>
    <message>
        <source>Reconnect</source>
        <translation>重新连接</translation>
    </message>
    <message>
        <source>Run Again</source>
        <translation>重新运行</translation>
    </message>
    <message>
        <source>Connect to {0} again and run the recipe&apos;s steps there; the recipe is as you left it</source>
        <translation>重新连接 {0} 并在那里运行食谱的步骤；食谱保持你离开时的样子</translation>
    </message>
    <message>
        <source>Run the recipe&apos;s steps again in a fresh kernel; the recipe is as you left it</source>
        <translation>在新内核中重新运行食谱的步骤；食谱保持你离开时的样子</translation>
    </message>
    <message>
        <source>Running the finished steps again in a fresh kernel…</source>
        <translation>正在新内核中重新运行已完成的步骤…</translation>
    </message>
    <message>
        <source>Starting the kernel…</source>
        <translation>正在启动内核…</translation>
    </message>
    <message>
        <source>Line {0}: {1}  ·  {2:.1f} s</source>
        <translation>第 {0} 行：{1}  ·  {2:.1f} 秒</translation>
    </message>
    <message>
        <source>A fresh kernel ran the finished steps again: their values are back.</source>
        <translation>新内核已重新运行已完成的步骤：它们的值已恢复。</translation>
    </message>
</context>
<context>
    <name>KnobsButton</name>
    <message>
        <source>Knobs</source>
        <extracomment>Knobs the bar shows on its own.</extracomment>
        <translation>参数</translation>
    </message>
    <message>
        <source>The recipe&apos;s other number literals: {0}. Changing one rewrites it in the code and runs the recipe again</source>
        <translation>配方中其他的数字字面量：{0}。修改其中一个会改写代码中的这个值，并重新运行配方</translation>
    </message>
    <message>
        <source>The recipe has no number literal to change here (such as steps = 100, or momentum=0.9)</source>
        <translation>配方中没有可以在这里修改的数字字面量（例如 steps = 100 或 momentum=0.9）</translation>
    </message>
    <message>
        <source>{0}, line {1} of the recipe</source>
        <translation>{0}，配方第 {1} 行</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>a {0}-D tensor</source>
        <extracomment>Operators and the op each one is. Names torch&apos;s messages use for dtypes, and the names a recipe writes.</extracomment>
        <translation>一个 {0} 维张量</translation>
    </message>
    <message>
        <source>a 1-D tensor (or a 0-D scalar)</source>
        <translation>一个一维张量（或 0 维标量）</translation>
    </message>
    <message>
        <source>with -1 standing for the missing size, the other sizes multiply to {0}, and {1} is not a multiple of {0}</source>
        <translation>用 -1 代表缺失的那个大小时，其他大小的乘积是 {0}，而 {1} 不是 {0} 的倍数</translation>
    </message>
    <message>
        <source>[{0}] holds {1} elements, but the tensor has {2}</source>
        <translation>[{0}] 容纳 {1} 个元素，但张量有 {2} 个</translation>
    </message>
    <message>
        <source>For {0} elements, for example: {1}</source>
        <translation>{0} 个元素的例子：{1}</translation>
    </message>
    <message>
        <source>Count the dimensions with x.dim() or x.shape; negative dims count from the end, so dim=-1 is always the last one.</source>
        <translation>用 x.dim() 或 x.shape 数一数维度；负的 dim 从末尾开始数，所以 dim=-1 总是最后一个维度。</translation>
    </message>
    <message>
        <source>Convert one side first, for example with .float(), .long() or .to(torch.float32).</source>
        <translation>先转换其中一边，例如用 .float()、.long() 或 .to(torch.float32)。</translation>
    </message>
    <message>
        <source>{op} inserts a new dimension, so dim may name any of the {positions} places around the dimensions of {rank}: it must be in [{lo}, {hi}], and {got} is not.</source>
        <translation>{op} 会插入一个新维度，所以 dim 可以指 {rank} 的各维度之间的 {positions} 个位置中的任意一个：它必须在 [{lo}, {hi}] 之内，而 {got} 不在。</translation>
    </message>
    <message>
        <source>Use a dim from {lo} to {hi}; dim={hi} (or -1) puts the new dimension last.</source>
        <translation>使用 {lo} 到 {hi} 之间的 dim；dim={hi}（或 -1）把新维度放在最后。</translation>
    </message>
    <message>
        <source>dim must be in [{lo}, {hi}] for {rank}, and {got} is outside it: dims count from 0, so the last dimension is {inner} (or -1).</source>
        <translation>对于{rank}，dim 必须在 [{lo}, {hi}] 之内，而 {got} 超出了范围：维度从 0 开始数，所以最后一个维度是 {inner}（或 -1）。</translation>
    </message>
    <message>
        <source>t() only transposes matrices (at most 2 dimensions); this tensor is {n}-D.</source>
        <translation>t() 只能转置矩阵（最多 2 个维度）；这个张量是 {n} 维的。</translation>
    </message>
    <message>
        <source>Say which two dimensions to swap with transpose(dim0, dim1), reorder them all with permute, or use .mT to swap the last two.</source>
        <translation>用 transpose(dim0, dim1) 指明要交换哪两个维度，用 permute 重排所有维度，或用 .mT 交换最后两个维度。</translation>
    </message>
    <message>
        <source>{fn} keeps a triangle of a matrix, so it needs at least 2 dimensions; this tensor has fewer.</source>
        <translation>{fn} 保留矩阵的一个三角，所以至少需要 2 个维度；这个张量的维度不够。</translation>
    </message>
    <message>
        <source>Make it 2-D first, for example with view(1, -1) or unsqueeze(0), or build the mask with torch.{fn}(torch.ones(n, n)).</source>
        <translation>先把它变成二维，例如用 view(1, -1) 或 unsqueeze(0)，或者用 torch.{fn}(torch.ones(n, n)) 构造掩码。</translation>
    </message>
    <message>
        <source>permute needs every dimension named exactly once: the tensor has {ndim} dimensions but {n} were given.</source>
        <translation>permute 要求每个维度恰好被列出一次：张量有 {ndim} 个维度，但给出了 {n} 个。</translation>
    </message>
    <message>
        <source>List {ndim} dims, each of 0 ... {ndim} - 1 once; to swap just two, use transpose.</source>
        <translation>列出 {ndim} 个维度，0 ... {ndim} - 1 每个各出现一次；只交换两个维度时用 transpose。</translation>
    </message>
    <message>
        <source>permute needs every dimension named exactly once, and one was named twice.</source>
        <translation>permute 要求每个维度恰好被列出一次，而有一个维度被列出了两次。</translation>
    </message>
    <message>
        <source>List each dim once: for a 3-D tensor, permute(2, 0, 1) is valid, permute(0, 0, 1) is not.</source>
        <translation>每个维度只列一次：对三维张量，permute(2, 0, 1) 是合法的，permute(0, 0, 1) 不是。</translation>
    </message>
    <message>
        <source>view never copies, so it only works when the elements already lie in memory in the order the new shape reads them. After transpose, permute or t() they do not: the tensor is not contiguous.</source>
        <translation>view 从不复制数据，所以只有当元素在内存中的排列顺序正好是新形状读取它们的顺序时才可行。经过 transpose、permute 或 t() 之后就不是这样了：张量不是连续的。</translation>
    </message>
    <message>
        <source>`view` needs compatible strides: call `.contiguous()` first or use `reshape`, which copies when it has to.</source>
        <translation>`view` 需要兼容的步长：先调用 `.contiguous()`，或者改用 `reshape`，它会在必要时复制数据。</translation>
    </message>
    <message>
        <source>The new shape must hold exactly as many elements as the tensor: {why}.</source>
        <translation>新形状容纳的元素个数必须与张量完全相同：{why}。</translation>
    </message>
    <message>
        <source>Pick sizes whose product is {numel}, or let one size be -1 to be worked out. {hint}.</source>
        <translation>选择乘积为 {numel} 的大小，或者让其中一个大小为 -1，由 torch 推算出来。{hint}。</translation>
    </message>
    <message>
        <source>Only one size can be -1: torch works it out from the others, and two unknowns cannot be worked out.</source>
        <translation>只能有一个大小是 -1：torch 根据其他大小推算出它，两个未知数无法推算。</translation>
    </message>
    <message>
        <source>Write all sizes but one as numbers.</source>
        <translation>除了一个之外，其余大小都写成具体数字。</translation>
    </message>
    <message>
        <source>expand can only stretch dimensions of size 1; dimension {dim} has size {old}, so it cannot become {new}.</source>
        <translation>expand 只能拉伸大小为 1 的维度；维度 {dim} 的大小是 {old}，所以它不能变成 {new}。</translation>
    </message>
    <message>
        <source>Keep size {old} there (or -1), expand a size-1 dimension instead (add one with unsqueeze), or use repeat to copy the data {new} / {old} times.</source>
        <translation>在那里保持大小 {old}（或写 -1），改为拉伸一个大小为 1 的维度（可以用 unsqueeze 添加一个），或用 repeat 把数据复制 {new} / {old} 次。</translation>
    </message>
    <message>
        <source>expand needs a size for every existing dimension ({ndim}), but got {n}.</source>
        <translation>expand 需要为每个已有维度（{ndim} 个）给出大小，但只得到了 {n} 个。</translation>
    </message>
    <message>
        <source>Give {ndim} or more sizes; new leading dimensions may be added in front.</source>
        <translation>给出 {ndim} 个或更多大小；新的维度可以加在最前面。</translation>
    </message>
    <message>
        <source>repeat needs a count for every dimension of the tensor.</source>
        <translation>repeat 需要为张量的每个维度给出一个次数。</translation>
    </message>
    <message>
        <source>Give one count per dimension, 1 where nothing should be repeated: for a 2-D tensor, repeat(1, 3) copies it three times side by side.</source>
        <translation>每个维度给一个次数，不需要重复的维度写 1：对二维张量，repeat(1, 3) 把它并排复制三份。</translation>
    </message>
    <message>
        <source>A size is negative; sizes count elements, so they are 0 or more.</source>
        <translation>有一个大小是负数；大小是元素的个数，所以必须大于或等于 0。</translation>
    </message>
    <message>
        <source>Use non-negative sizes (-1 is only allowed in view and reshape).</source>
        <translation>使用非负的大小（只有 view 和 reshape 允许写 -1）。</translation>
    </message>
    <message>
        <source>gather reads input at the positions stored in index, along dim {dim}, where input has size {size}: every index value must be in [0, {last}], and one is {got}.</source>
        <translation>gather 沿 dim {dim} 读取 input 在 index 所存位置上的元素，而 input 在该维度的大小是 {size}：index 的每个值都必须在 [0, {last}] 之内，而其中一个是 {got}。</translation>
    </message>
    <message>
        <source>Check index&apos;s values (index.min(), index.max()) and that dim is the dimension they count along; gather does not accept negative positions.</source>
        <translation>检查 index 的值（index.min()、index.max()），并确认 dim 正是它们所计数的那个维度；gather 不接受负的位置。</translation>
    </message>
    <message>
        <source>Dimension {dim} has size {size}, so positions run from 0 to {last} (or {neg} to -1 from the end); {got} is past the end.</source>
        <translation>维度 {dim} 的大小是 {size}，所以位置从 0 到 {last}（或从末尾数 {neg} 到 -1）；{got} 超出了末尾。</translation>
    </message>
    <message>
        <source>Use a position below {size}; x.shape shows each dimension&apos;s size.</source>
        <translation>使用小于 {size} 的位置；x.shape 会显示每个维度的大小。</translation>
    </message>
    <message>
        <source>A value in index is negative or not smaller than input&apos;s size along dim: index_select (and embedding) can only pick positions that exist.</source>
        <translation>index 中有一个值是负数，或者不小于 input 沿 dim 的大小：index_select（以及 embedding）只能选取存在的位置。</translation>
    </message>
    <message>
        <source>Check index.min() &gt;= 0 and index.max() &lt; x.shape[dim].</source>
        <translation>检查 index.min() &gt;= 0 且 index.max() &lt; x.shape[dim]。</translation>
    </message>
    <message>
        <source>gather&apos;s index needs as many dimensions as input: it says, for every output element, where along dim to read.</source>
        <translation>gather 的 index 需要和 input 有同样多的维度：它为每个输出元素指明沿 dim 从哪里读取。</translation>
    </message>
    <message>
        <source>Add the missing dimensions to index, for example index.unsqueeze(1) or index.view(-1, 1).</source>
        <translation>给 index 补上缺少的维度，例如 index.unsqueeze(1) 或 index.view(-1, 1)。</translation>
    </message>
    <message>
        <source>Except along dim {along}, index may not be larger than input: index is [{index}] and input is [{self}], and at dimension {dim} index is larger.</source>
        <translation>除了沿 dim {along} 之外，index 不能比 input 大：index 是 [{index}]，input 是 [{self}]，而在维度 {dim} 上 index 更大。</translation>
    </message>
    <message>
        <source>Make index&apos;s size at dimension {dim} at most input&apos;s, or gather along another dim.</source>
        <translation>让 index 在维度 {dim} 上的大小不超过 input 的，或者沿另一个 dim 做 gather。</translation>
    </message>
    <message>
        <source>{fn}&apos;s index holds positions, so it must be an integer tensor (int64), not floating point.</source>
        <translation>{fn} 的 index 存放的是位置，所以必须是整数张量（int64），而不是浮点数。</translation>
    </message>
    <message>
        <source>Convert it with index.long(), or build it with torch.tensor([...]) from whole numbers.</source>
        <translation>用 index.long() 转换它，或者用整数通过 torch.tensor([...]) 构造它。</translation>
    </message>
    <message>
        <source>index_select takes a 1-D list of positions.</source>
        <translation>index_select 接受一个一维的位置列表。</translation>
    </message>
    <message>
        <source>Flatten the index with index.view(-1), or use gather for per-element positions.</source>
        <translation>用 index.view(-1) 把索引展平，或者用 gather 按元素指定位置。</translation>
    </message>
    <message>
        <source>Positions must be whole numbers (or a bool mask), but this index is floating point.</source>
        <translation>位置必须是整数（或 bool 掩码），但这个索引是浮点数。</translation>
    </message>
    <message>
        <source>Convert the index with .long(), or compare to make a mask: x[x &gt; 0].</source>
        <translation>用 .long() 转换索引，或者通过比较生成掩码：x[x &gt; 0]。</translation>
    </message>
    <message>
        <source>The tensor has {ndim} dimensions, but the index names more positions than that.</source>
        <translation>张量有 {ndim} 个维度，但索引指定的位置比这更多。</translation>
    </message>
    <message>
        <source>Give at most {ndim} indices (use : for a whole dimension); check x.shape.</source>
        <translation>最多给出 {ndim} 个索引（整个维度用 : 表示）；检查 x.shape。</translation>
    </message>
    <message>
        <source>mask must be a bool tensor (True where to fill); this one has dtype {dtype_name}.</source>
        <translation>mask 必须是 bool 张量（要填充的地方为 True）；这个的 dtype 是 {dtype_name}。</translation>
    </message>
    <message>
        <source>Compare to make one, such as mask == 0 or mask &gt; 0.5, or convert with mask.bool().</source>
        <translation>通过比较生成一个，例如 mask == 0 或 mask &gt; 0.5，或者用 mask.bool() 转换。</translation>
    </message>
    <message>
        <source>masked_fill writes one value everywhere the mask is True; the value given is a {n}-D tensor.</source>
        <translation>masked_fill 在 mask 为 True 的每个地方写入同一个值；给出的值是一个 {n} 维张量。</translation>
    </message>
    <message>
        <source>Give a number, or a 0-D tensor; to take different values per element, use torch.where(mask, values, x).</source>
        <translation>给一个数，或者一个 0 维张量；要按元素取不同的值，请用 torch.where(mask, values, x)。</translation>
    </message>
    <message>
        <source>where&apos;s condition must be a bool tensor; this one is {dtype_name}.</source>
        <translation>where 的 condition 必须是 bool 张量；这个是 {dtype_name}。</translation>
    </message>
    <message>
        <source>Compare to make one, such as x &gt; 0, or convert with .bool().</source>
        <translation>通过比较生成一个，例如 x &gt; 0，或者用 .bool() 转换。</translation>
    </message>
    <message>
        <source>cat joins along dim {dim}, so every other dimension must have the same size: tensor number {n} has size {got} where the first has {want}.</source>
        <translation>cat 沿 dim {dim} 拼接，所以其他每个维度的大小都必须相同：第 {n} 个张量在那里的大小是 {got}，而第一个是 {want}。</translation>
    </message>
    <message>
        <source>Check the shapes: maybe you meant another dim, or one tensor needs a transpose or reshape first.</source>
        <translation>检查形状：也许你想用另一个 dim，或者某个张量需要先 transpose 或 reshape。</translation>
    </message>
    <message>
        <source>cat joins tensors with the same number of dimensions; here one has {a} and another {b}.</source>
        <translation>cat 拼接的张量必须有相同的维数；这里一个有 {a} 维，另一个有 {b} 维。</translation>
    </message>
    <message>
        <source>Add the missing dimension with unsqueeze (or use stack, which adds a new one).</source>
        <translation>用 unsqueeze 补上缺少的维度（或者用 stack，它会新增一个维度）。</translation>
    </message>
    <message>
        <source>stack puts tensors side by side along a new dimension, so all must have exactly the same shape: entry {i} is [{a}] and entry {j} is [{b}].</source>
        <translation>stack 沿一个新维度把张量并排放置，所以它们的形状必须完全相同：第 {i} 项是 [{a}]，第 {j} 项是 [{b}]。</translation>
    </message>
    <message>
        <source>Make the shapes equal, or use cat to join along an existing dimension.</source>
        <translation>让形状相同，或者用 cat 沿已有的维度拼接。</translation>
    </message>
    <message>
        <source>There is nothing to join: the list of tensors is empty.</source>
        <translation>没有东西可拼接：张量列表是空的。</translation>
    </message>
    <message>
        <source>Pass at least one tensor, for example torch.cat((a, b)).</source>
        <translation>至少传入一个张量，例如 torch.cat((a, b))。</translation>
    </message>
    <message>
        <source>The piece sizes must add up to the length along dim, {size}; [{sizes}] adds up to {got_sum}.</source>
        <translation>各段大小之和必须等于沿 dim 的长度 {size}；[{sizes}] 加起来是 {got_sum}。</translation>
    </message>
    <message>
        <source>Change the sizes so they sum to {size}, or give one number to cut equal pieces.</source>
        <translation>修改各段大小使它们之和为 {size}，或者只给一个数来切成等大的段。</translation>
    </message>
    <message>
        <source>chunks is how many pieces to cut, so it must be at least 1 (got {n}).</source>
        <translation>chunks 是要切成的段数，所以至少为 1（得到的是 {n}）。</translation>
    </message>
    <message>
        <source>Use chunks=1 or more.</source>
        <translation>使用 chunks=1 或更大的值。</translation>
    </message>
    <message>
        <source>A matrix product (n x m) @ (m x p) needs the left&apos;s columns to equal the right&apos;s rows: here {a} and {b}, and {inner_a} is not {inner_b}.</source>
        <translation>矩阵乘积 (n x m) @ (m x p) 要求左边的列数等于右边的行数：这里是 {a} 和 {b}，而 {inner_a} 不等于 {inner_b}。</translation>
    </message>
    <message>
        <source>Transpose one side (B.t() or B.mT) or check which dimension should be shared.</source>
        <translation>转置其中一边（B.t() 或 B.mT），或者检查应该共享哪个维度。</translation>
    </message>
    <message>
        <source>bmm multiplies batches of matrices and needs two 3-D tensors, (b, n, m) and (b, m, p); batch{which} is not 3-D.</source>
        <translation>bmm 对成批的矩阵做乘法，需要两个三维张量 (b, n, m) 和 (b, m, p)；batch{which} 不是三维的。</translation>
    </message>
    <message>
        <source>Add a batch dimension with unsqueeze(0), or use matmul, which takes 2-D tensors and broadcasts batch dimensions.</source>
        <translation>用 unsqueeze(0) 添加一个批次维度，或者用 matmul，它接受二维张量并会广播批次维度。</translation>
    </message>
    <message>
        <source>The second batch must have the same batch size as the first and as many rows as the first has columns: its first two sizes should be [{want}], not [{got}].</source>
        <translation>第二批矩阵的批次大小必须与第一批相同，且行数要等于第一批的列数：它的前两个大小应为 [{want}]，而不是 [{got}]。</translation>
    </message>
    <message>
        <source>Make the batch sizes equal and the inner sizes match (transpose the last two dimensions with .mT if needed).</source>
        <translation>让批次大小相同、内部大小匹配（需要时用 .mT 转置最后两个维度）。</translation>
    </message>
    <message>
        <source>mv multiplies a ({mat}) matrix by a vector, so the vector needs {m} elements, not {v}.</source>
        <translation>mv 把一个 ({mat}) 矩阵乘以一个向量，所以向量需要 {m} 个元素，而不是 {v} 个。</translation>
    </message>
    <message>
        <source>Use a vector of length {m}, or transpose the matrix.</source>
        <translation>使用长度为 {m} 的向量，或者转置矩阵。</translation>
    </message>
    <message>
        <source>mv needs a 2-D matrix and a 1-D vector.</source>
        <translation>mv 需要一个二维矩阵和一个一维向量。</translation>
    </message>
    <message>
        <source>Pass the matrix first (2-D) and the vector second (1-D); for other shapes use matmul.</source>
        <translation>先传矩阵（二维），再传向量（一维）；其他形状请用 matmul。</translation>
    </message>
    <message>
        <source>A dot product multiplies two vectors element by element, so they need the same length: here {a} and {b}.</source>
        <translation>点积把两个向量逐元素相乘，所以它们的长度必须相同：这里是 {a} 和 {b}。</translation>
    </message>
    <message>
        <source>Use vectors of the same length; check the shapes with .shape.</source>
        <translation>使用长度相同的向量；用 .shape 检查形状。</translation>
    </message>
    <message>
        <source>dot only takes two 1-D vectors; here they are {a}-D and {b}-D.</source>
        <translation>dot 只接受两个一维向量；这里它们是 {a} 维和 {b} 维的。</translation>
    </message>
    <message>
        <source>Use matmul (or @) for matrices, or (a * b).sum() for an element-by-element product summed.</source>
        <translation>矩阵请用 matmul（或 @），逐元素相乘再求和请用 (a * b).sum()。</translation>
    </message>
    <message>
        <source>Both sides of a matrix product must have the same dtype: one is {a_name}, the other {b_name}.</source>
        <translation>矩阵乘积两边的 dtype 必须相同：一边是 {a_name}，另一边是 {b_name}。</translation>
    </message>
    <message>
        <source>Both vectors must have the same dtype: one is {a_name}, the other {b_name}.</source>
        <translation>两个向量的 dtype 必须相同：一个是 {a_name}，另一个是 {b_name}。</translation>
    </message>
    <message>
        <source>Each operand needs one letter per dimension: operand {i} has {ndim} dimensions but its part of the equation has {n} letters.</source>
        <translation>每个操作数的每个维度都需要一个字母：操作数 {i} 有 {ndim} 个维度，但它在方程中的那部分有 {n} 个字母。</translation>
    </message>
    <message>
        <source>Write {ndim} letters for operand {i}, or use ... for dimensions you do not name.</source>
        <translation>为操作数 {i} 写 {ndim} 个字母，或者对不命名的维度使用 ...。</translation>
    </message>
    <message>
        <source>Letter {s} names one dimension shared by the operands, so its size must agree: operand {i} has {a}, an earlier one {b}.</source>
        <translation>字母 {s} 表示操作数共享的一个维度，所以它的大小必须一致：操作数 {i} 的大小是 {a}，而前面的一个是 {b}。</translation>
    </message>
    <message>
        <source>Give the shared dimension the same size in every operand, or use different letters.</source>
        <translation>让共享维度在每个操作数中的大小相同，或者使用不同的字母。</translation>
    </message>
    <message>
        <source>The equation has one comma-separated part per operand, and the count differs from the number of tensors given.</source>
        <translation>方程中每个操作数对应一个用逗号分隔的部分，而这个数目与给出的张量个数不同。</translation>
    </message>
    <message>
        <source>Give one tensor per part of the equation: &apos;ij,jk-&gt;ik&apos; takes two.</source>
        <translation>方程的每一部分对应一个张量：&apos;ij,jk-&gt;ik&apos; 需要两个。</translation>
    </message>
    <message>
        <source>Broadcasting lines shapes up from the right and stretches sizes of 1; at dimension {dim} one tensor has size {a} and the other {b}, and neither is 1.</source>
        <translation>广播从右边开始对齐形状，并拉伸大小为 1 的维度；在维度 {dim} 上一个张量的大小是 {a}，另一个是 {b}，而且都不是 1。</translation>
    </message>
    <message>
        <source>Make the sizes equal, or make one of them 1 (with unsqueeze or view) so it is stretched; a transpose may be missing.</source>
        <translation>让大小相同，或者让其中一个为 1（用 unsqueeze 或 view），使它能被拉伸；也可能是少了一次转置。</translation>
    </message>
    <message>
        <source>An in-place op writes into the tensor itself, which has shape [{out}] and cannot grow to [{want}].</source>
        <translation>原地操作写入张量本身，而它的形状是 [{out}]，不能变大为 [{want}]。</translation>
    </message>
    <message>
        <source>Use the out-of-place form (x = x + y instead of x.add_(y)), which may broadcast to a bigger shape.</source>
        <translation>使用非原地的写法（用 x = x + y 代替 x.add_(y)），它可以广播成更大的形状。</translation>
    </message>
    <message>
        <source>An in-place op keeps the tensor&apos;s dtype, {b_name}, but the result is {a_name}: it would lose information.</source>
        <translation>原地操作会保持张量的 dtype {b_name}，但结果是 {a_name}：这样会丢失信息。</translation>
    </message>
    <message>
        <source>Use the out-of-place form (x = x + 0.5), or convert first: x = x.float().</source>
        <translation>使用非原地的写法（x = x + 0.5），或者先转换：x = x.float()。</translation>
    </message>
    <message>
        <source>Autograd needs the original values of a tensor created with requires_grad=True, so it cannot be changed in place.</source>
        <translation>Autograd 需要用 requires_grad=True 创建的张量的原始值，所以不能原地修改它。</translation>
    </message>
    <message>
        <source>Do the update inside `with torch.no_grad():`, or use the out-of-place form (w = w + 1).</source>
        <translation>在 `with torch.no_grad():` 中进行更新，或者使用非原地的写法（w = w + 1）。</translation>
    </message>
    <message>
        <source>{name} has {count} elements, so there is no single number to differentiate: backward needs to know how much each element of {name} counts. gradient=torch.ones_like({name}) counts every element once, which gives the same gradients as {name}.sum().backward(). Any tensor of {name}&apos;s shape works: it is the gradient of some final scalar with respect to {name}.</source>
        <translation>{name} 有 {count} 个元素，没有单独一个数可以求导：backward 需要知道 {name} 的每个元素各占多少分量。gradient=torch.ones_like({name}) 让每个元素都计一次，得到的梯度与 {name}.sum().backward() 相同。任何与 {name} 形状相同的张量都可以：它就是某个最终标量对 {name} 的梯度。</translation>
    </message>
    <message>
        <source>The first backward freed the values the graph saved for it (the inputs of each multiplication, the outputs of each activation...) to save memory, so the graph cannot be walked again.</source>
        <translation>为了节省内存，第一次 backward 释放了计算图为它保存的值（每次乘法的输入、每个激活函数的输出……），所以无法再次遍历这个计算图。</translation>
    </message>
    <message>
        <source>Pass retain_graph=True to every backward but the last, for example out.backward(retain_graph=True); or compute the result again before the next backward.</source>
        <translation>除最后一次外，每次 backward 都传入 retain_graph=True，例如 out.backward(retain_graph=True)；或者在下一次 backward 之前重新计算结果。</translation>
    </message>
    <message>
        <source>backward was called on a tensor with more than one element, so torch does not know how much each element counts.</source>
        <translation>对一个有多个元素的张量调用了 backward，所以 torch 不知道每个元素各占多少分量。</translation>
    </message>
    <message>
        <source>Pass gradient=torch.ones_like(out) (the same as out.sum().backward()), or reduce the result to one number first, for example with .sum() or .mean().</source>
        <translation>传入 gradient=torch.ones_like(out)（与 out.sum().backward() 相同），或者先把结果归约成一个数，例如用 .sum() 或 .mean()。</translation>
    </message>
    <message>
        <source>backward was called on a tensor autograd never recorded: nothing it was computed from requires grad, or it was computed under torch.no_grad() or from a detach()-ed tensor.</source>
        <translation>对一个 autograd 从未记录过的张量调用了 backward：计算它所用的张量都不需要梯度，或者它是在 torch.no_grad() 下计算的，或是由 detach() 过的张量计算而来的。</translation>
    </message>
    <message>
        <source>Create the input leaves with requires_grad=True (or call requires_grad_()), and compute the result outside torch.no_grad() and without detach().</source>
        <translation>用 requires_grad=True 创建作为输入的叶子张量（或调用 requires_grad_()），并在 torch.no_grad() 之外、不经过 detach() 计算结果。</translation>
    </message>
    <message>
        <source>The gradient passed to backward has shape {g}, but the tensor has shape {o}: they must match element for element.</source>
        <translation>传给 backward 的梯度形状是 {g}，而张量的形状是 {o}：两者必须逐元素对应。</translation>
    </message>
    <message>
        <source>Pass a gradient of the same shape, for example torch.ones_like(out).</source>
        <translation>传入形状相同的梯度，例如 torch.ones_like(out)。</translation>
    </message>
    <message>
        <source>retain_grad() keeps the gradient of a tensor in the graph, but this tensor is not in any graph (it does not require grad).</source>
        <translation>retain_grad() 用来保留计算图中某个张量的梯度，但这个张量不在任何计算图中（它不需要梯度）。</translation>
    </message>
    <message>
        <source>Compute it from a tensor with requires_grad=True, outside torch.no_grad().</source>
        <translation>在 torch.no_grad() 之外，由 requires_grad=True 的张量计算得到它。</translation>
    </message>
    <message>
        <source>The tensor was computed from others, so whether it requires grad follows from them; only leaves can be switched.</source>
        <translation>这个张量是由其他张量计算得到的，它是否需要梯度由那些张量决定；只有叶子张量可以切换。</translation>
    </message>
    <message>
        <source>Call requires_grad_() on the leaf it was computed from, or make a new leaf with y.detach().requires_grad_().</source>
        <translation>对计算它所用的叶子张量调用 requires_grad_()，或者用 y.detach().requires_grad_() 创建一个新的叶子张量。</translation>
    </message>
    <message>
        <source>Autograd needs a leaf&apos;s values as they were when the graph was built, so a leaf that requires grad cannot be changed in place.</source>
        <translation>Autograd 需要叶子张量在构建计算图时的值，所以需要梯度的叶子张量不能被原地修改。</translation>
    </message>
    <message>
        <source>Do the update inside `with torch.no_grad():`, or zero its gradient with x.grad.zero_().</source>
        <translation>在 `with torch.no_grad():` 中进行更新，或者用 x.grad.zero_() 将它的梯度清零。</translation>
    </message>
    <message>
        <source>The tensor&apos;s .grad is None: backward has not put a gradient there yet (or it is not a leaf, or it does not require grad).</source>
        <translation>该张量的 .grad 是 None：backward 还没有在那里存入梯度（或者它不是叶子张量，或者它不需要梯度）。</translation>
    </message>
    <message>
        <source>Run backward first; x.grad.zero_() only makes sense once x.grad exists.</source>
        <translation>请先运行 backward；只有在 x.grad 存在之后，x.grad.zero_() 才有意义。</translation>
    </message>
    <message>
        <source>Gradients are only defined for floating point tensors; this one holds integers.</source>
        <translation>梯度只对浮点张量有定义；这个张量存放的是整数。</translation>
    </message>
    <message>
        <source>Create it as floating point, for example torch.arange(3.0) or dtype=torch.float32.</source>
        <translation>将它创建为浮点类型，例如 torch.arange(3.0) 或 dtype=torch.float32。</translation>
    </message>
    <message>
        <source>A value the graph saved for backward was changed in place afterwards, so the gradient would be computed from the wrong numbers.</source>
        <translation>计算图为 backward 保存的某个值之后被原地修改了，所以梯度会用错误的数值来计算。</translation>
    </message>
    <message>
        <source>Use the out-of-place form (y = y + 1 instead of y.add_(1)) before backward.</source>
        <translation>在 backward 之前使用非原地的写法（用 y = y + 1 代替 y.add_(1)）。</translation>
    </message>
    <message>
        <source>&apos;{output}&apos; is not a step of the recipe</source>
        <extracomment>Largest Jacobian (output elements times input elements) worked out on request. Largest input (elements) a Hessian is worked out for: the matrix is its square.</extracomment>
        <translation>“{output}”不是配方中的步骤</translation>
    </message>
    <message>
        <source>&apos;{input}&apos; is not computed before &apos;{output}&apos;</source>
        <translation>“{input}”并不是在“{output}”之前计算的</translation>
    </message>
    <message>
        <source>&apos;{output}&apos; is not computed from &apos;{input}&apos;</source>
        <translation>“{output}”不是由“{input}”计算得到的</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; is not a tensor</source>
        <translation>“{0}”不是张量</translation>
    </message>
    <message>
        <source>&apos;{0}&apos; holds {1}: derivatives need floating point values</source>
        <translation>“{0}”的类型是 {1}：求导需要浮点数值</translation>
    </message>
    <message>
        <source>the Jacobian would have {0} x {1} entries; the explorer shows at most {2}</source>
        <translation>雅可比矩阵将有 {0} × {1} 个元素；探索器最多显示 {2} 个</translation>
    </message>
    <message>
        <source>a Hessian needs a one-element output; &apos;{0}&apos; has {1} elements (reduce it with .sum() or .mean())</source>
        <translation>黑塞矩阵需要只有一个元素的输出；“{0}”有 {1} 个元素（请用 .sum() 或 .mean() 把它归约）</translation>
    </message>
    <message>
        <source>the Hessian would be {0} x {0}; the explorer shows inputs of at most {1} elements</source>
        <translation>黑塞矩阵将是 {0} × {0}；探索器只处理最多 {1} 个元素的输入</translation>
    </message>
    <message>
        <source>Create it as floating point, for example torch.arange(3.0) or with dtype=torch.float32.</source>
        <translation>把它创建为浮点类型，例如 torch.arange(3.0)，或者指定 dtype=torch.float32。</translation>
    </message>
    <message>
        <source>backward needs a result computed from a tensor with requires_grad=True; nothing here was recorded.</source>
        <translation>backward 需要一个由 requires_grad=True 的张量计算出来的结果；这里没有任何操作被记录。</translation>
    </message>
    <message>
        <source>Create the input with requires_grad=True, and compute outside torch.no_grad().</source>
        <translation>用 requires_grad=True 创建输入，并在 torch.no_grad() 之外进行计算。</translation>
    </message>
    <message>
        <source>{op} copies input&apos;s dtype, {dtype_name}, and random floats cannot be stored in an integer tensor.</source>
        <translation>{op} 沿用 input 的 dtype {dtype_name}，而随机浮点数无法存入整数张量。</translation>
    </message>
    <message>
        <source>Pass dtype=torch.float32, or call it on x.float().</source>
        <translation>传入 dtype=torch.float32，或者在 x.float() 上调用它。</translation>
    </message>
    <message>
        <source>&amp;, | and ^ combine bool masks (or integer bits); here one side is {dtype_name}.</source>
        <translation>&amp;、| 和 ^ 用于组合 bool 掩码（或整数的二进制位）；这里有一边是 {dtype_name}。</translation>
    </message>
    <message>
        <source>Compare first to get masks: (x &gt; 0) &amp; (x &lt; 5).</source>
        <translation>先比较得到掩码：(x &gt; 0) &amp; (x &lt; 5)。</translation>
    </message>
    <message>
        <source>{op} has no version for {dtype_name} tensors; most maths on fractions (softmax, mean, exp ...) needs floating point.</source>
        <translation>{op} 没有针对 {dtype_name} 张量的版本；大多数涉及小数的运算（softmax、mean、exp ...）都需要浮点数。</translation>
    </message>
    <message>
        <source>Convert first, for example x.float() or x.to(torch.float64).</source>
        <translation>先转换，例如 x.float() 或 x.to(torch.float64)。</translation>
    </message>
    <message>
        <source>{op} of integers is a fraction, so it needs a floating point input; this one is {dtype_name}.</source>
        <translation>整数的 {op} 结果是小数，所以需要浮点输入；这个是 {dtype_name}。</translation>
    </message>
    <message>
        <source>Convert first with x.float(), or pass dtype=torch.float32.</source>
        <translation>先用 x.float() 转换，或者传入 dtype=torch.float32。</translation>
    </message>
    <message>
        <source>The standard deviation is a fraction, so it needs a floating point input.</source>
        <translation>标准差是小数，所以需要浮点输入。</translation>
    </message>
    <message>
        <source>Convert first with x.float().</source>
        <translation>先用 x.float() 转换。</translation>
    </message>
    <message>
        <source>multinomial takes weights (probabilities) as floating point numbers; these are {dtype_name}.</source>
        <translation>multinomial 需要浮点数形式的权重（概率）；这些是 {dtype_name}。</translation>
    </message>
    <message>
        <source>Convert the weights with .float().</source>
        <translation>用 .float() 转换权重。</translation>
    </message>
    <message>
        <source>Both tensors must have the same dtype: one is {a_name}, the other {b_name}.</source>
        <translation>两个张量的 dtype 必须相同：一个是 {a_name}，另一个是 {b_name}。</translation>
    </message>
    <message>
        <source>The targets of {op} are class numbers, so they must be int64; these are {got_name}.</source>
        <translation>{op} 的目标是类别编号，所以必须是 int64；这些是 {got_name}。</translation>
    </message>
    <message>
        <source>Convert the targets with .long() (they should hold 0 ... classes - 1).</source>
        <translation>用 .long() 转换目标（它们应在 0 ... classes - 1 之间）。</translation>
    </message>
    <message>
        <source>Subtracting bool masks is not defined.</source>
        <translation>bool 掩码之间不能做减法。</translation>
    </message>
    <message>
        <source>For &apos;in one but not the other&apos; use a &amp; ~b; for &apos;differs&apos; use a ^ b; or convert with .int() first.</source>
        <translation>“在一个中但不在另一个中”请用 a &amp; ~b；“不同”请用 a ^ b；或者先用 .int() 转换。</translation>
    </message>
    <message>
        <source>-mask is not defined for bool tensors.</source>
        <translation>bool 张量不能做 -mask。</translation>
    </message>
    <message>
        <source>Invert a mask with ~mask (or mask.logical_not()).</source>
        <translation>用 ~mask（或 mask.logical_not()）对掩码取反。</translation>
    </message>
    <message>
        <source>Integer division (// or %) by zero has no answer.</source>
        <translation>整数除以零（// 或 %）没有结果。</translation>
    </message>
    <message>
        <source>Make sure the divisor has no zeros, or divide floating point tensors, where x / 0 gives inf.</source>
        <translation>确保除数中没有 0，或者对浮点张量做除法，此时 x / 0 得到 inf。</translation>
    </message>
    <message>
        <source>one_hot takes class numbers as an int64 tensor.</source>
        <translation>one_hot 接受 int64 张量形式的类别编号。</translation>
    </message>
    <message>
        <source>Convert with .long() first.</source>
        <translation>先用 .long() 转换。</translation>
    </message>
    <message>
        <source>A class number in input is num_classes or more; classes run from 0 to num_classes - 1.</source>
        <translation>input 中有一个类别编号大于或等于 num_classes；类别范围是 0 到 num_classes - 1。</translation>
    </message>
    <message>
        <source>Raise num_classes above input.max(), or leave it at -1 to use input.max() + 1.</source>
        <translation>把 num_classes 设为大于 input.max() 的值，或者保留 -1，让它使用 input.max() + 1。</translation>
    </message>
    <message>
        <source>one_hot&apos;s class numbers count from 0; input holds a negative one.</source>
        <translation>one_hot 的类别编号从 0 开始；input 中有一个负数。</translation>
    </message>
    <message>
        <source>Shift or clean the labels so the smallest is 0.</source>
        <translation>平移或清理标签，使最小值为 0。</translation>
    </message>
    <message>
        <source>item() turns a one-element tensor into a Python number; this tensor has {n} elements.</source>
        <translation>item() 把单元素张量变成 Python 数；这个张量有 {n} 个元素。</translation>
    </message>
    <message>
        <source>Index one element first (x[0, 1].item()), reduce it (x.sum().item()), or use tolist() for all of them.</source>
        <translation>先索引出一个元素（x[0, 1].item()），或者先归约（x.sum().item()），要获取全部元素请用 tolist()。</translation>
    </message>
    <message>
        <source>multinomial&apos;s weights must be non-negative, finite numbers.</source>
        <translation>multinomial 的权重必须是非负的有限数。</translation>
    </message>
    <message>
        <source>Turn scores into probabilities with softmax first, or clamp(min=0).</source>
        <translation>先用 softmax 把分数变成概率，或者用 clamp(min=0)。</translation>
    </message>
    <message>
        <source>Every weight in a row is 0, so there is nothing to draw.</source>
        <translation>某一行的权重全都是 0，所以没有可抽取的。</translation>
    </message>
    <message>
        <source>Give each row at least one positive weight.</source>
        <translation>让每一行至少有一个正的权重。</translation>
    </message>
    <message>
        <source>Without replacement each position can be drawn once, so num_samples cannot exceed the number of positions.</source>
        <translation>不放回抽样时每个位置只能被抽到一次，所以 num_samples 不能超过位置的个数。</translation>
    </message>
    <message>
        <source>Ask for fewer samples, or pass replacement=True.</source>
        <translation>减少样本数，或者传入 replacement=True。</translation>
    </message>
    <message>
        <source>clamp needs a lower bound, an upper bound, or both.</source>
        <translation>clamp 需要一个下界、一个上界，或者两者都要。</translation>
    </message>
    <message>
        <source>Give min=..., max=... or both.</source>
        <translation>给出 min=...、max=... 或两者都给。</translation>
    </message>
    <message>
        <source>The tensor is empty, so there is no largest element to find.</source>
        <translation>张量是空的，所以找不到最大元素。</translation>
    </message>
    <message>
        <source>Check the tensor&apos;s shape; pass dim to reduce along a non-empty dimension.</source>
        <translation>检查张量的形状；传入 dim，沿一个非空的维度归约。</translation>
    </message>
    <message>
        <source>arange counts from start towards end by step; with this sign of step it never gets there.</source>
        <translation>arange 从 start 出发、以 step 为步长朝 end 计数；step 是这个符号时永远到不了 end。</translation>
    </message>
    <message>
        <source>Use a negative step to count down (torch.arange(5, 0, -1)), or swap start and end.</source>
        <translation>用负的 step 倒数（torch.arange(5, 0, -1)），或者交换 start 和 end。</translation>
    </message>
    <message>
        <source>steps is how many values to make, so it cannot be negative.</source>
        <translation>steps 是要生成的值的个数，所以不能为负数。</translation>
    </message>
    <message>
        <source>Use steps=0 or more.</source>
        <translation>使用 steps=0 或更大的值。</translation>
    </message>
    <message>
        <source>randint draws from [low, high), so low must be smaller than high; here low={lo} and high={hi}.</source>
        <translation>randint 从 [low, high) 中抽取，所以 low 必须小于 high；这里 low={lo}，high={hi}。</translation>
    </message>
    <message>
        <source>Swap them, or make high bigger than low.</source>
        <translation>交换它们，或者让 high 大于 low。</translation>
    </message>
    <message>
        <source>A standard deviation measures spread, so it cannot be negative (got {std}).</source>
        <translation>标准差衡量的是分散程度，所以不能为负数（得到的是 {std}）。</translation>
    </message>
    <message>
        <source>Use std &gt;= 0.</source>
        <translation>使用 std &gt;= 0。</translation>
    </message>
    <message>
        <source>Tensors are rectangular: every row of the nested list must have the same length, but at depth {dim} one has {a} items and another {b}.</source>
        <translation>张量是矩形的：嵌套列表的每一行长度必须相同，但在第 {dim} 层，一行有 {a} 项，另一行有 {b} 项。</translation>
    </message>
    <message>
        <source>Make every row the same length (pad with zeros if needed).</source>
        <translation>让每一行的长度相同（需要时用 0 补齐）。</translation>
    </message>
    <message>
        <source>This copy of PyTorch has no CUDA support, so there is no &apos;cuda&apos; device to use.</source>
        <translation>这个 PyTorch 版本不支持 CUDA，所以没有可用的 &apos;cuda&apos; 设备。</translation>
    </message>
    <message>
        <source>Use device=&apos;cpu&apos;, or install a CUDA build of PyTorch on a machine with an NVIDIA GPU.</source>
        <translation>使用 device=&apos;cpu&apos;，或者在有 NVIDIA GPU 的机器上安装支持 CUDA 的 PyTorch 版本。</translation>
    </message>
    <message>
        <source>An op needs all its tensors on the same device, and these are on different ones.</source>
        <translation>一个操作要求它的所有张量都在同一个设备上，而这些张量在不同的设备上。</translation>
    </message>
    <message>
        <source>Move them together first, for example y = y.to(x.device).</source>
        <translation>先把它们放到一起，例如 y = y.to(x.device)。</translation>
    </message>
    <message>
        <source>&apos;{dev}&apos; is not a device name torch knows.</source>
        <translation>&apos;{dev}&apos; 不是 torch 认识的设备名。</translation>
    </message>
    <message>
        <source>Use &apos;cpu&apos;, &apos;cuda&apos;, &apos;cuda:0&apos; or &apos;mps&apos;.</source>
        <translation>使用 &apos;cpu&apos;、&apos;cuda&apos;、&apos;cuda:0&apos; 或 &apos;mps&apos;。</translation>
    </message>
    <message>
        <source>The result would need {gib} GiB of memory, more than the lab allows for one tensor ({budget} GiB).</source>
        <translation>结果需要 {gib} GiB 内存，超过了本实验室允许单个张量使用的上限（{budget} GiB）。</translation>
    </message>
    <message>
        <source>Use smaller sizes; expanded and broadcast tensors count every element they seem to have.</source>
        <translation>使用更小的大小；经过 expand 和广播的张量，其表面上的每个元素都要计入。</translation>
    </message>
    <message>
        <source>{op} expects {want} for &apos;{arg}&apos;, but got a {got}.</source>
        <translation>{op} 的参数 &apos;{arg}&apos; 需要 {want}，但得到的是 {got}。</translation>
    </message>
    <message>
        <source>Pass &apos;{arg}&apos; as {want}: for a shape, a tuple such as (2, 3).</source>
        <translation>把 &apos;{arg}&apos; 传为 {want}：形状请用元组，例如 (2, 3)。</translation>
    </message>
    <message>
        <source>None of {op}&apos;s ways of being called matches the arguments given.</source>
        <translation>{op} 的所有调用方式都与给出的参数不匹配。</translation>
    </message>
    <message>
        <source>Compare with the accepted forms listed in the message; a common slip is a list where torch wants a tensor, or a keyword spelt differently.</source>
        <translation>对照消息中列出的可用形式；常见的错误是在 torch 需要张量的地方传了列表，或者关键字参数拼写不同。</translation>
    </message>
    <message>
        <source>this op</source>
        <translation>这个操作</translation>
    </message>
    <message>
        <source>freed</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>into {0}.grad</source>
        <translation>累加到 {0}.grad</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>leaf</source>
        <translation>叶子</translation>
    </message>
    <message>
        <source>cut by {0}</source>
        <translation>被 {0} 截断</translation>
    </message>
    <message>
        <source>not in this graph</source>
        <translation>不在此计算图中</translation>
    </message>
    <message>
        <source>{0} · {1}</source>
        <translation>{0} · {1}</translation>
    </message>
    <message>
        <source>tensor {0}</source>
        <translation>张量 {0}</translation>
    </message>
    <message>
        <source>{name} was computed inside `with torch.no_grad():` from {src}, so autograd did not record it: the graph is cut here. {name} does not require grad and no gradient reaches it.</source>
        <translation>{name} 是在 `with torch.no_grad():` 中由 {src} 计算得到的，所以 autograd 没有记录它：计算图在这里被截断。{name} 不需要梯度，也不会有梯度到达它。</translation>
    </message>
    <message>
        <source>{name} comes from {src} through {how}: it holds the same values but is cut off from the graph, so it does not require grad and no gradient flows through it. To make it a new leaf, call {name}.requires_grad_().</source>
        <translation>{name} 是由 {src} 经过 {how} 得到的：它的值相同，但已与计算图断开，所以它不需要梯度，也没有梯度流经它。要让它成为新的叶子张量，请调用 {name}.requires_grad_()。</translation>
    </message>
    <message>
        <source>{name} holds {dtype} values; only floating point tensors can require grad, so autograd ignores it.</source>
        <translation>{name} 存放的是 {dtype} 值；只有浮点张量才能需要梯度，所以 autograd 会忽略它。</translation>
    </message>
    <message>
        <source>{name} does not require grad: autograd treats it as a constant and it is not part of any graph. Create it with requires_grad=True, or call {name}.requires_grad_(), to get a gradient.</source>
        <translation>{name} 不需要梯度：autograd 把它当作常量，它不属于任何计算图。要得到梯度，请用 requires_grad=True 创建它，或者调用 {name}.requires_grad_()。</translation>
    </message>
    <message>
        <source>{name} is not a leaf (it was computed by {fn}). During backward its gradient is passed on to the leaves and then thrown away. Call {name}.retain_grad() before backward to keep it.</source>
        <translation>{name} 不是叶子张量（它由 {fn} 计算得到）。在 backward 过程中，它的梯度被继续传给叶子张量，随后就被丢弃。要保留它，请在 backward 之前调用 {name}.retain_grad()。</translation>
    </message>
    <message>
        <source>{name}.grad is None: no backward() that reaches {name} has run yet. .grad is filled in by a step such as out.backward().</source>
        <translation>{name}.grad 是 None：还没有运行过能到达 {name} 的 backward()。.grad 由 out.backward() 这样的步骤填入。</translation>
    </message>
    <message>
        <source>backward() has not run yet: .grad is filled in by a step such as out.backward(), and {name} is waiting for one.</source>
        <translation>backward() 还没有运行：.grad 要由 out.backward() 这样的步骤来填充，{name} 正在等待这样的步骤。</translation>
    </message>
    <message>
        <source>backward ran from {sources}, but that graph does not reach {name}, so {name} got no gradient. Call backward on a result computed from {name}.</source>
        <translation>backward 从 {sources} 运行，但那个计算图到达不了 {name}，所以 {name} 没有得到梯度。请对由 {name} 计算得到的结果调用 backward。</translation>
    </message>
    <message>
        <source>{name}.grad is None.</source>
        <translation>{name}.grad 为 None。</translation>
    </message>
    <message>
        <source>{label} is the backward of {op}: given the gradient of its output, it computes the gradients of its inputs and passes them along its edges. It is {names}.grad_fn.</source>
        <translation>{label} 是 {op} 的反向函数：拿到其输出的梯度后，它计算各个输入的梯度，并沿着它的边继续传递。它就是 {names}.grad_fn。</translation>
    </message>
    <message>
        <source>{label} is the backward of {op}: given the gradient of its output, it computes the gradients of its inputs and passes them along its edges.</source>
        <translation>{label} 是 {op} 的反向函数：拿到其输出的梯度后，它计算各个输入的梯度，并沿着它的边继续传递。</translation>
    </message>
    <message>
        <source>AccumulateGrad is where backward ends for its leaf tensor: it ADDS the gradient arriving here into its leaf tensor.grad, so a second backward adds again.</source>
        <translation>AccumulateGrad 是 backward 到达它的叶子张量的终点：它把到达这里的梯度累加（而不是覆盖）到该叶子张量的 .grad 上，所以第二次 backward 会再加一次。</translation>
    </message>
    <message>
        <source>AccumulateGrad is where backward ends for {leaf}: it ADDS the gradient arriving here into {leaf}.grad, so a second backward adds again.</source>
        <translation>AccumulateGrad 是 backward 到达 {leaf} 的终点：它把到达这里的梯度累加（而不是覆盖）到 {leaf}.grad 上，所以第二次 backward 会再加一次。</translation>
    </message>
    <message>
        <source>A leaf: a tensor created with requires_grad=True rather than computed. Leaves are where gradients are stored.</source>
        <translation>叶子张量：用 requires_grad=True 直接创建、而不是计算得到的张量。梯度就存放在叶子张量里。</translation>
    </message>
    <message>
        <source>A tensor {label} saved during the forward pass because the backward needs its values. backward() frees it unless retain_graph=True.</source>
        <translation>前向传播时保存的张量 {label}，因为反向函数需要用到它的值。除非传入 retain_graph=True，否则 backward() 会释放它。</translation>
    </message>
    <message>
        <source>The tensor above was made from {label}, but detach() or torch.no_grad() cut the graph there: backward stops above, and no gradient reaches {label} or anything it was computed from.</source>
        <translation>上面的张量由 {label} 得到，但 detach() 或 torch.no_grad() 在那里截断了计算图：backward 在上面就停止了，没有梯度会到达 {label}，也不会到达计算它所用的任何张量。</translation>
    </message>
    <message>
        <source>The tensor whose graph is drawn; its grad_fn is where backward starts.</source>
        <translation>正在绘制其计算图的张量；backward 从它的 grad_fn 开始。</translation>
    </message>
</context>
<context>
    <name>LessonPane</name>
    <message>
        <source>The lesson: the recipe&apos;s docstring</source>
        <extracomment>The most lines the output pane keeps, and the most characters one update shows: a flood keeps its tail (the document keeps more: ``kernel_results.OUTPUT_LIMIT``). The console shows new output at most this often, in milliseconds.</extracomment>
        <translation>课程：配方的文档字符串</translation>
    </message>
    <message>
        <source>*This recipe has no lesson text. A docstring at the top of the file becomes its title and lesson.*</source>
        <translation>*此配方没有课程文字。文件顶部的文档字符串会成为它的标题和课程内容。*</translation>
    </message>
</context>
<context>
    <name>LoopBar</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the recipe again from the top: its loop trains afresh</source>
        <translation>从头重新运行配方：训练循环重新开始训练</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Pause the loop at its next backward(); click again to go on</source>
        <translation>在下一次 backward() 时暂停循环；再点一次继续</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Train one step: on to the next backward(), then pause again</source>
        <translation>训练一步：运行到下一次 backward()，然后再次暂停</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the run (KeyboardInterrupt in the recipe, as Ctrl+C under python)</source>
        <translation>停止运行（在配方中引发 KeyboardInterrupt，和在 python 下按 Ctrl+C 一样）</translation>
    </message>
    <message>
        <source>The recipe has more than one training loop: the one the plots show</source>
        <translation>配方中有不止一个训练循环：这里选择图表显示哪一个</translation>
    </message>
    <message>
        <source>Learning rate: while the loop trains, every optimizer it steps takes it at its next step; the recipe&apos;s lr= is rewritten for the next run</source>
        <translation>学习率：循环训练时，它更新的每个优化器都在下一步采用这个值；配方中的 lr= 也会改写，供下次运行使用</translation>
    </message>
    <message>
        <source>lr</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Pause at NaN</source>
        <translation>遇到 NaN 时暂停</translation>
    </message>
    <message>
        <source>Pause before the first backward() whose loss is NaN or infinite, so you can look at why</source>
        <translation>在第一次损失为 NaN 或无穷大的 backward() 之前暂停，方便查看原因</translation>
    </message>
    <message>
        <source>Where the loop trains: rewrites the recipe&apos;s device = ... line, so the saved file says so</source>
        <translation>在哪个设备上训练：改写配方中的 device = ... 这一行，保存的文件也会写明</translation>
    </message>
    <message>
        <source>The loop&apos;s step, loss and learning rate now</source>
        <translation>循环当前的步数、损失和学习率</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Plot a number the loop binds (val_loss, acc...) beside the loss: its value at every iteration, once the loop has run</source>
        <translation>把循环绑定的某个数（val_loss、acc……）画在损失旁边：循环运行完后，显示它在每次迭代时的值</translation>
    </message>
    <message>
        <source>Go on</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>No extra curve</source>
        <translation>不加曲线</translation>
    </message>
    <message>
        <source>Also plot {0}</source>
        <translation>同时绘制 {0}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Autograd graph</source>
        <translation>Autograd 图</translation>
    </message>
    <message>
        <source>The selected step&apos;s tensor: facts, statistics, every value</source>
        <translation>所选步骤的张量：属性、统计和所有值</translation>
    </message>
    <message>
        <source>The backward graph of the selected tensor: grad_fn nodes, leaves and their gradients</source>
        <translation>所选张量的反向传播图：grad_fn 节点、叶子及其梯度</translation>
    </message>
    <message>
        <source>Op explained</source>
        <translation>运算图解</translation>
    </message>
    <message>
        <source>The selected step&apos;s inputs and output side by side; hover an output cell to see where it came from</source>
        <translation>所选步骤的输入和输出并排显示；将鼠标悬停在输出单元格上可查看它的来源</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Which tensors share memory: views versus copies, with data_ptr, offset and strides</source>
        <translation>哪些张量共享内存：视图与副本，以及 data_ptr、offset 和 strides</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The nn.Module the selected step made: its layers, their parameters and buffers, and the shapes of their last call</source>
        <translation>所选步骤创建的 nn.Module：它的各层、各层的参数和缓冲区，以及它们最后一次调用时的形状</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Builder</source>
        <translation>构建器</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>运算</translation>
    </message>
    <message>
        <source>Docs</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Gallery</source>
        <translation>课程库</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>The default device, the kernel&apos;s PyTorch build and the devices it can reach</source>
        <translation>默认设备、内核的 PyTorch 版本，以及它能使用的设备</translation>
    </message>
    <message>
        <source>│  PyTorch: starting… · default device: {0}</source>
        <translation>│  PyTorch：启动中… · 默认设备：{0}</translation>
    </message>
    <message>
        <source>│  PyTorch: not found by the kernel · default device: {0}</source>
        <translation>│  PyTorch：内核未找到 · 默认设备：{0}</translation>
    </message>
    <message>
        <source>│  torch {0}{1} · default device: {2} · devices: {3}</source>
        <translation>│  torch {0}{1} · 默认设备：{2} · 设备：{3}</translation>
    </message>
    <message>
        <source>│  on {0} </source>
        <translation>│  服务器：{0} </translation>
    </message>
    <message>
        <source>Shape and dtype of the selected step&apos;s tensor</source>
        <translation>所选步骤张量的形状和 dtype</translation>
    </message>
    <message>
        <source>Open Recipe</source>
        <translation>打开配方</translation>
    </message>
    <message>
        <source>Save Recipe</source>
        <translation>保存配方</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>The recipe runs on {0}, in {1}; File &gt; Download from the Server fetches its files</source>
        <translation>食谱在 {0} 的 {1} 中运行；“文件 &gt; 从服务器下载”可取回它的文件</translation>
    </message>
    <message>
        <source>The recipe runs in {0}</source>
        <translation>配方在 {0} 中运行</translation>
    </message>
    <message>
        <source>This recipe has no file to go back to.</source>
        <translation>这个配方没有可以恢复的文件。</translation>
    </message>
    <message>
        <source>Reset to the original</source>
        <translation>恢复原始内容</translation>
    </message>
    <message>
        <source>Discard every change made to {0} and open the file as it was saved?</source>
        <translation>丢弃对 {0} 所做的所有修改，并按保存时的样子重新打开文件吗？</translation>
    </message>
    <message>
        <source>Code that is not Python yet</source>
        <translation>还不是 Python 的代码</translation>
    </message>
    <message>
        <source>The code typed in the Code pane does not read as Python yet, so it is not part of the recipe: {0}

Discard what was typed?</source>
        <translation>在代码窗格中输入的代码还不能被读作 Python，所以它还不是配方的一部分：{0}

要丢弃输入的内容吗？</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>The recipe has changes that are not saved. Save them first?</source>
        <translation>配方有未保存的修改。要先保存吗？</translation>
    </message>
    <message>
        <source>{0}[*] — Tensor Lab</source>
        <extracomment>How much of the screen&apos;s free area the window takes on the first launch.</extracomment>
        <translation>{0}[*] — Tensor Lab 张量实验室</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
</context>
<context>
    <name>ModelGraph</name>
    <message>
        <source>No kernel: run the recipe to see its modules.</source>
        <translation>没有内核：运行配方后才能看到它的模块。</translation>
    </message>
    <message>
        <source>Export the graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Zoom to show the whole graph</source>
        <translation>缩放以显示整张图</translation>
    </message>
    <message>
        <source>Open all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Open every collapsed container</source>
        <translation>展开所有折叠的容器</translation>
    </message>
    <message>
        <source>Export...</source>
        <translation>导出...</translation>
    </message>
    <message>
        <source>Save the graph as a PNG image or an SVG drawing, for slides</source>
        <translation>把图保存为 PNG 图像或 SVG 矢量图，用于幻灯片</translation>
    </message>
    <message>
        <source>No graph: {0}</source>
        <translation>没有图：{0}</translation>
    </message>
    <message>
        <source>Select a step that makes an nn.Module and call it: the graph is drawn from its last forward call.</source>
        <translation>选择一个创建 nn.Module 的步骤并调用它：图根据它最后一次前向调用绘制。</translation>
    </message>
    <message>
        <source>{0}: {1}, its last traced forward call</source>
        <translation>{0}：{1}，它最后一次被记录的前向调用</translation>
    </message>
    <message>
        <source>it raised: {0}</source>
        <translation>它抛出了异常：{0}</translation>
    </message>
    <message>
        <source>(too many calls: the first {0} are drawn)</source>
        <translation>（调用太多：只画出前 {0} 个）</translation>
    </message>
    <message>
        <source>Recorded while the recipe&apos;s own call ran (no extra forward pass): a statement&apos;s first call of the module, and in a training loop a sampled step&apos;s now and then</source>
        <translation>在配方自己的调用运行时记录（没有额外的前向传播）：每条语句对该模块的第一次调用，训练循环中则不时记录一个采样步</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>树</translation>
    </message>
    <message>
        <source>The module&apos;s submodules, parameters and buffers</source>
        <translation>模块的子模块、参数和缓冲区</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>The module&apos;s last forward call: its layers and the shapes between them</source>
        <translation>模块最后一次前向调用：它的各层以及层之间的形状</translation>
    </message>
    <message>
        <source>The module&apos;s last traced forward call: its layers and the torch calls between them, each edge labelled with the shape that flowed. The wheel zooms, dragging pans; click a container&apos;s title to collapse it.</source>
        <extracomment>Fill of each kind of node (light, so the dark text reads on any theme).</extracomment>
        <translation>模块最后一次被记录的前向调用：它的各层和层之间的 torch 调用，每条边标出流过的张量形状。滚轮缩放，拖动平移；点击容器的标题可以把它折叠。</translation>
    </message>
    <message>
        <source>Called inside {0}</source>
        <translation>在 {0} 内部调用</translation>
    </message>
    <message>
        <source>A container, collapsed: click to open it.</source>
        <translation>一个已折叠的容器：点击展开。</translation>
    </message>
    <message>
        <source>This call raised: {0}</source>
        <translation>这次调用抛出了异常：{0}</translation>
    </message>
    <message>
        <source>{0} → {1}: a tensor of shape {2}</source>
        <translation>{0} → {1}：形状为 {2} 的张量</translation>
    </message>
    <message>
        <source>The call it goes into raised: {0}</source>
        <translation>它流入的调用抛出了异常：{0}</translation>
    </message>
    <message>
        <source>{0}: click to collapse it into one box</source>
        <translation>{0}：点击把它折叠成一个框</translation>
    </message>
</context>
<context>
    <name>ModelPanel</name>
    <message>
        <source>No kernel: run the recipe to see its modules.</source>
        <extracomment>While the run trains, a picked layer&apos;s output is asked again this often (ms). The module is asked for once the tab is on screen, after each change</extracomment>
        <translation>没有内核：运行配方后才能看到它的模块。</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>The attention weights of the run&apos;s attention calls (nn.MultiheadAttention, F.scaled_dot_product_attention), a heatmap per head</source>
        <translation>本次运行中注意力调用（nn.MultiheadAttention、F.scaled_dot_product_attention）的注意力权重，每个头一张热图</translation>
    </message>
    <message>
        <source>The module could not be read: {0}</source>
        <translation>无法读取该模块：{0}</translation>
    </message>
    <message>
        <source>Select a step that makes an nn.Module (net = Net(), nn.Sequential(...)) to see its layers, their parameters and the shapes of their last call.</source>
        <translation>选择一个创建 nn.Module 的步骤（net = Net()、nn.Sequential(...)），查看它的各层、参数以及最后一次调用时的形状。</translation>
    </message>
    <message>
        <source>{0} (the last module selected; the step selected now makes none)</source>
        <translation>{0}（上一次选中的模块；当前选中的步骤没有创建模块）</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Total params: {0} · Trainable: {1} · Non-trainable: {2} · Buffers: {3} · Modules: {4}</source>
        <translation>参数总数：{0} · 可训练：{1} · 不可训练：{2} · 缓冲区：{3} · 模块数：{4}</translation>
    </message>
    <message>
        <source>(too many modules: the deepest are left out)</source>
        <translation>（模块太多：最深的几层没有列出）</translation>
    </message>
    <message>
        <source>Elements in the parameters, each shared one counted once; trainable ones require grad</source>
        <translation>参数中的元素个数，共享的参数只计一次；可训练的参数 requires_grad 为 True</translation>
    </message>
</context>
<context>
    <name>NewTrainingDialog</name>
    <message>
        <source>New training</source>
        <extracomment>What a new training starts from: spirals, a small ReLU MLP, Adam, 300 steps.</extracomment>
        <translation>新建训练</translation>
    </message>
    <message>
        <source>The recipe these choices write: plain PyTorch that runs under python, and that you can edit once it is open</source>
        <translation>这些选择写出的配方：普通的 PyTorch 代码，可以直接用 python 运行，打开后也可以编辑</translation>
    </message>
    <message>
        <source>Lines of the recipe</source>
        <translation>配方的行数</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Open the recipe as a new, unsaved one; it runs at once, and the Training tab shows its loop</source>
        <translation>把配方作为一个新的未保存配方打开；它会立即运行，“训练”标签页显示它的循环</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>{0} lines</source>
        <translation>{0} 行</translation>
    </message>
</context>
<context>
    <name>OpCategory</name>
    <message>
        <source>creation</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>indexing</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>masks</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>joining</source>
        <translation>拼接</translation>
    </message>
    <message>
        <source>linalg</source>
        <translation>线性代数</translation>
    </message>
    <message>
        <source>elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <source>activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>conversion</source>
        <translation>类型转换</translation>
    </message>
    <message>
        <source>autograd</source>
        <translation>自动求导</translation>
    </message>
    <message>
        <source>nn</source>
        <translation>神经网络</translation>
    </message>
    <message>
        <source>comparison</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>legacy</source>
        <translation>旧式写法</translation>
    </message>
    <message>
        <source>new tensors</source>
        <translation>新张量</translation>
    </message>
</context>
<context>
    <name>OpExtra</name>
    <message>
        <source>What the drawing shows</source>
        <translation>图示说明</translation>
    </message>
</context>
<context>
    <name>OpPanel</name>
    <message>
        <source>Search ops: name or what it does</source>
        <translation>搜索运算：名称或功能</translation>
    </message>
    <message>
        <source>Show only ops whose name or summary contains this text, such as &apos;dim&apos; or &apos;mask&apos;.</source>
        <translation>只显示名称或说明中包含此文字的运算，例如 “dim” 或 “mask”。</translation>
    </message>
    <message>
        <source>The ops, by category. Pick one to see what it does and to apply it.</source>
        <translation>按类别列出的运算。选择一个可查看其作用并应用它。</translation>
    </message>
    <message>
        <source>The chosen op.</source>
        <translation>所选的运算。</translation>
    </message>
    <message>
        <source>What the op does.</source>
        <translation>此运算的作用。</translation>
    </message>
    <message>
        <source>How the op is called, with its defaults.</source>
        <translation>此运算的调用方式及默认值。</translation>
    </message>
    <message>
        <source>Whether the panel adds a new step or changes the selected one.</source>
        <translation>面板是添加新步骤，还是修改所选步骤。</translation>
    </message>
    <message>
        <source>Switch between changing the selected step and adding a new one.</source>
        <translation>在修改所选步骤和添加新步骤之间切换。</translation>
    </message>
    <message>
        <source>The tensor the op is applied to, by name.</source>
        <translation>运算作用的张量（按名称）。</translation>
    </message>
    <message>
        <source>The variable the result is assigned to.</source>
        <translation>结果赋给的变量。</translation>
    </message>
    <message>
        <source>Apply to</source>
        <translation>应用于</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>The Python line the step is, as saved in the recipe.</source>
        <translation>此步骤对应的一行 Python 代码，与保存在配方中的一致。</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Append this op as a new step and select it.</source>
        <translation>将此运算作为新步骤追加并选中它。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Why the step failed, and what to change.</source>
        <translation>步骤失败的原因，以及需要修改什么。</translation>
    </message>
    <message>
        <source>Time it</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>Apply {0}</source>
        <translation>应用 {0}</translation>
    </message>
    <message>
        <source>Change {0}</source>
        <translation>修改 {0}</translation>
    </message>
    <message>
        <source>Rename {0} to {1}</source>
        <translation>将 {0} 重命名为 {1}</translation>
    </message>
    <message>
        <source>Give the result a name.</source>
        <translation>请给结果命名。</translation>
    </message>
    <message>
        <source>docs</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Open PyTorch&apos;s documentation: {0}</source>
        <translation>打开 PyTorch 官方文档：{0}</translation>
    </message>
    <message>
        <source>Changing step {0}: every change applies at once.</source>
        <translation>正在修改步骤 {0}：每次修改立即生效。</translation>
    </message>
    <message>
        <source>New step</source>
        <translation>新步骤</translation>
    </message>
    <message>
        <source>New step: Apply adds it at the end.</source>
        <translation>新步骤：“应用”会把它添加到末尾。</translation>
    </message>
    <message>
        <source>Edit {0}</source>
        <translation>编辑 {0}</translation>
    </message>
    <message>
        <source>none: it changes its input in place</source>
        <translation>无：它原地修改输入</translation>
    </message>
    <message>
        <source>Fix the marked fields to see the code.</source>
        <translation>修正标记的字段后即可看到代码。</translation>
    </message>
    <message>
        <source>The recipe&apos;s tensors are offered once its run has made them.</source>
        <translation>配方运行生成张量之后，这里才会列出它们。</translation>
    </message>
    <message>
        <source>Add a tensor first: the op needs one.</source>
        <translation>请先添加一个张量：此运算需要它。</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <source>Why: {0}</source>
        <translation>原因：{0}</translation>
    </message>
    <message>
        <source>Fix: {0}</source>
        <translation>修正：{0}</translation>
    </message>
</context>
<context>
    <name>OpSpec</name>
    <message>
        <source>Computes the gradient of this tensor with respect to every leaf tensor it was computed from (those created with requires_grad=True) and ADDS it to each leaf&apos;s .grad. The graph is freed afterwards unless retain_graph=True.</source>
        <translation>计算这个张量对所有参与计算它的叶子张量（用 requires_grad=True 创建的张量）的梯度，并把梯度“累加”到每个叶子的 .grad 上。之后计算图会被释放，除非传入 retain_graph=True。</translation>
    </message>
    <message>
        <source>Asks autograd to keep .grad for this non-leaf tensor too. Only leaves (tensors you created) get .grad by default; intermediate results pass the gradient on and forget it. Call it before backward.</source>
        <translation>让 autograd 也为这个非叶子张量保留 .grad。默认只有叶子张量（你自己创建的张量）才有 .grad；中间结果只把梯度往回传，不会保存。要在 backward 之前调用。</translation>
    </message>
    <message>
        <source>In place: switches autograd recording on (or off) for this tensor and returns it. Only a leaf (a tensor not computed from others) can be switched; it must be floating point.</source>
        <translation>原地操作：为这个张量打开（或关闭）autograd 记录，并返回它本身。只有叶子张量（不是由其他张量计算得到的）才能切换，而且必须是浮点类型。</translation>
    </message>
    <message>
        <source>In place: sets every element to 0. Used as x.grad.zero_() to reset a gradient, because backward adds to .grad rather than replacing it.</source>
        <translation>原地操作：把每个元素设为 0。常写作 x.grad.zero_() 来清零梯度，因为 backward 是累加到 .grad 上，而不是替换它。</translation>
    </message>
    <message>
        <source>In place: cuts this tensor off from the graph that made it, so it becomes a leaf that does not require grad. Gradients no longer flow back through it.</source>
        <translation>原地操作：把这个张量从生成它的计算图上切断，使它成为一个不需要梯度的叶子张量。梯度不再经过它往回传。</translation>
    </message>
    <message>
        <source>max(x, 0) element by element: negative values become 0, positive values pass unchanged. Its gradient is 1 where x &gt; 0 and 0 elsewhere.</source>
        <translation>逐元素计算 max(x, 0)：负值变为 0，正值原样通过。它的梯度在 x &gt; 0 处为 1，其他地方为 0。</translation>
    </message>
    <message>
        <source>The hyperbolic tangent element by element: squashes any number into (-1, 1), with slope 1 at 0.</source>
        <translation>逐元素计算双曲正切：把任意数压缩到 (-1, 1) 之间，在 0 处斜率为 1。</translation>
    </message>
    <message>
        <source>Copies Python data (a number or nested lists) into a new tensor. The dtype is inferred: integers give int64, floats give float32.</source>
        <translation>把 Python 数据（一个数或嵌套列表）复制到一个新张量中。dtype 会自动推断：整数得到 int64，浮点数得到 float32。</translation>
    </message>
    <message>
        <source>A tensor of the given shape filled with 0.</source>
        <translation>给定形状、全部填充为 0 的张量。</translation>
    </message>
    <message>
        <source>A tensor of the given shape filled with 1.</source>
        <translation>给定形状、全部填充为 1 的张量。</translation>
    </message>
    <message>
        <source>A tensor of the given shape with uninitialised memory: the values are whatever was there before. Fast, but never read it before writing.</source>
        <translation>给定形状、内存未初始化的张量：其中的值是那块内存里原有的任意内容。速度快，但在写入之前绝不要读取它。</translation>
    </message>
    <message>
        <source>A tensor of the given shape with every element set to fill_value. The dtype follows fill_value unless given.</source>
        <translation>给定形状、每个元素都等于 fill_value 的张量。除非指定 dtype，否则 dtype 跟随 fill_value。</translation>
    </message>
    <message>
        <source>The identity matrix: ones on the main diagonal, zeros elsewhere.</source>
        <translation>单位矩阵：主对角线上为 1，其余为 0。</translation>
    </message>
    <message>
        <source>Values from start up to, but not including, end, step apart. With one argument, torch.arange(n) gives 0, 1, ..., n-1.</source>
        <translation>从 start 开始、到 end 为止（不包括 end）、间隔为 step 的一串值。只传一个参数时，torch.arange(n) 得到 0, 1, ..., n-1。</translation>
    </message>
    <message>
        <source>steps evenly spaced values from start to end, both included.</source>
        <translation>从 start 到 end（两端都包含）均匀分布的 steps 个值。</translation>
    </message>
    <message>
        <source>steps values evenly spaced on a log scale: base**start to base**end.</source>
        <translation>在对数刻度上均匀分布的 steps 个值：从 base**start 到 base**end。</translation>
    </message>
    <message>
        <source>Uniform random numbers in [0, 1). Set the seed to get the same numbers again.</source>
        <translation>[0, 1) 区间内的均匀分布随机数。设置随机种子可以再次得到相同的数。</translation>
    </message>
    <message>
        <source>Random numbers from the standard normal distribution (mean 0, std 1).</source>
        <translation>服从标准正态分布（均值 0，标准差 1）的随机数。</translation>
    </message>
    <message>
        <source>Random integers in [low, high). The result is int64 unless dtype is given.</source>
        <translation>[low, high) 区间内的随机整数。除非指定 dtype，结果为 int64。</translation>
    </message>
    <message>
        <source>A random permutation of 0 ... n-1: the usual way to shuffle indices.</source>
        <translation>0 ... n-1 的一个随机排列：打乱索引的常用方法。</translation>
    </message>
    <message>
        <source>Random numbers from a normal distribution with the given mean and std.</source>
        <translation>服从给定 mean（均值）和 std（标准差）的正态分布的随机数。</translation>
    </message>
    <message>
        <source>Zeros with the shape, dtype and device of input.</source>
        <translation>形状、dtype 和设备都与 input 相同的全 0 张量。</translation>
    </message>
    <message>
        <source>Ones with the shape, dtype and device of input.</source>
        <translation>形状、dtype 和设备都与 input 相同的全 1 张量。</translation>
    </message>
    <message>
        <source>Uninitialised memory with the shape, dtype and device of input.</source>
        <translation>形状、dtype 和设备都与 input 相同的未初始化内存。</translation>
    </message>
    <message>
        <source>Uniform random numbers in [0, 1) shaped like input. input must be floating point.</source>
        <translation>形状与 input 相同、[0, 1) 区间内的均匀分布随机数。input 必须是浮点类型。</translation>
    </message>
    <message>
        <source>Standard normal random numbers shaped like input. input must be floating point.</source>
        <translation>形状与 input 相同的标准正态分布随机数。input 必须是浮点类型。</translation>
    </message>
    <message>
        <source>fill_value everywhere, shaped like input.</source>
        <translation>形状与 input 相同，每个位置都是 fill_value。</translation>
    </message>
    <message>
        <source>Random integers in [low, high) shaped like input.</source>
        <translation>形状与 input 相同、[low, high) 区间内的随机整数。</translation>
    </message>
    <message>
        <source>Seeds the random number generator so random tensors come out the same every run.</source>
        <translation>为随机数生成器设置种子，使每次运行得到的随机张量都相同。</translation>
    </message>
    <message>
        <source>Prints a value, exactly as Python would.</source>
        <translation>打印一个值，和 Python 的 print 完全一样。</translation>
    </message>
    <message>
        <source>A new tensor of the given shape filled with {0}, with the dtype and device of the tensor it is called on (not torch&apos;s defaults). Only the dtype and device are taken from it: its shape and values play no part. torch.{1}_like copies the shape as well.</source>
        <translation>给定形状、全部填充为 {0} 的新张量，其 dtype 和设备取自调用它的那个张量（而不是 torch 的默认值）。只取它的 dtype 和设备：它的形状和值都不起作用。torch.{1}_like 则连形状也一起复制。</translation>
    </message>
    <message>
        <source>The class of every tensor, called as a constructor. torch.Tensor(2, 3) makes a 2 x 3 float32 tensor of uninitialised memory; torch.Tensor([1, 2]) copies data but always as float32 (the default dtype). Prefer torch.tensor(data), which infers the dtype, and torch.empty(2, 3) for uninitialised memory.</source>
        <translation>所有张量的类，当作构造函数来调用。torch.Tensor(2, 3) 创建一个 2 x 3、内存未初始化的 float32 张量；torch.Tensor([1, 2]) 会复制数据，但总是存成 float32（默认 dtype）。更推荐用 torch.tensor(data)，它会推断 dtype；需要未初始化内存时用 torch.empty(2, 3)。</translation>
    </message>
    <message>
        <source>True when the tensor&apos;s elements lie in memory in row-major order, one after the other, as view needs them. transpose and permute only change the strides, so their results usually are not contiguous; contiguous() makes a copy that is.</source>
        <translation>当张量的元素在内存中按行优先顺序一个接一个排列（正是 view 所需要的）时为 True。transpose 和 permute 只改变步长（stride），所以它们的结果通常不是连续的；contiguous() 会生成一个连续的副本。</translation>
    </message>
    <message>
        <source>A fully connected layer: y = x @ weight.T + bias, applied to the last dimension of x. weight is (out_features, in_features) and starts random (Kaiming uniform), so set the seed first.</source>
        <translation>全连接层：y = x @ weight.T + bias，作用在 x 的最后一个维度上。weight 的形状是 (out_features, in_features)，初始值是随机的（Kaiming 均匀初始化），所以要先设置随机种子。</translation>
    </message>
    <message>
        <source>A lookup table: each integer id picks one row of weight, so ids of shape S give vectors of shape S + (embedding_dim,).</source>
        <translation>查找表：每个整数 id 选出 weight 的一行，所以形状为 S 的 id 得到形状为 S + (embedding_dim,) 的向量。</translation>
    </message>
    <message>
        <source>In training mode, zeroes each element with probability p and scales the others by 1 / (1 - p), so the expected value stays the same. In eval mode it does nothing.</source>
        <translation>在训练模式下，以概率 p 把每个元素置零，并把其余元素乘以 1 / (1 - p)，使期望值保持不变。在评估（eval）模式下它什么也不做。</translation>
    </message>
    <message>
        <source>max(x, 0) as a module, for nn.Sequential.</source>
        <translation>作为模块的 max(x, 0)，用于 nn.Sequential。</translation>
    </message>
    <message>
        <source>The hyperbolic tangent as a module, for nn.Sequential.</source>
        <translation>作为模块的双曲正切，用于 nn.Sequential。</translation>
    </message>
    <message>
        <source>1 / (1 + exp(-x)) as a module, for nn.Sequential.</source>
        <translation>作为模块的 1 / (1 + exp(-x))，用于 nn.Sequential。</translation>
    </message>
    <message>
        <source>Runs its modules one after the other: the output of each is the input of the next. seq[0] is the first module; its parameters are named 0.weight, 0.bias ...</source>
        <translation>依次运行其中的模块：每个模块的输出是下一个模块的输入。seq[0] 是第一个模块；它的参数名为 0.weight、0.bias ...</translation>
    </message>
    <message>
        <source>A list of modules whose parameters belong to the module that holds it. It has no forward: call its items, layers[0](x).</source>
        <translation>一个模块列表，其中模块的参数属于持有它的那个模块。它没有 forward：要调用其中的元素，例如 layers[0](x)。</translation>
    </message>
    <message>
        <source>A dict of modules, looked up by name: heads[&quot;class&quot;](x). Its parameters are named after the keys.</source>
        <translation>一个按名字查找的模块字典：heads[&quot;class&quot;](x)。它的参数以键名命名。</translation>
    </message>
    <message>
        <source>A tensor marked as a learnable parameter: assigned to a module attribute, it appears in parameters() and state_dict() and the optimizer trains it.</source>
        <translation>被标记为可学习参数的张量：把它赋给模块的属性后，它会出现在 parameters() 和 state_dict() 中，并由优化器训练。</translation>
    </message>
    <message>
        <source>True when every |input - other| &lt;= atol + rtol * |other|: equal up to rounding. rtol covers large values; near zero only atol helps.</source>
        <translation>当每个元素都满足 |input - other| &lt;= atol + rtol * |other| 时为 True：在舍入误差范围内相等。rtol 负责较大的值；在 0 附近只有 atol 起作用。</translation>
    </message>
    <message>
        <source>True when both tensors have the same shape and exactly the same elements: not a single bit of rounding allowed.</source>
        <translation>当两个张量形状相同且元素完全相同时为 True：连一位的舍入误差都不允许。</translation>
    </message>
    <message>
        <source>The absolute value of every element.</source>
        <translation>每个元素的绝对值。</translation>
    </message>
    <message>
        <source>The largest element. With dim, a (values, indices) pair: the largest along dim and where it is.</source>
        <translation>最大的元素。指定 dim 时返回 (values, indices) 对：沿 dim 的最大值及其位置。</translation>
    </message>
    <message>
        <source>The smallest element. With dim, a (values, indices) pair: the smallest along dim and where it is.</source>
        <translation>最小的元素。指定 dim 时返回 (values, indices) 对：沿 dim 的最小值及其位置。</translation>
    </message>
    <message>
        <source>The number of items: a tensor&apos;s first dimension, a list&apos;s length, the modules in a Sequential or ModuleList.</source>
        <translation>元素个数：张量的第一个维度的大小、列表的长度、Sequential 或 ModuleList 中模块的个数。</translation>
    </message>
    <message>
        <source>The items as a Python list, so print shows them all: list(net.parameters()), list(sd.keys()).</source>
        <translation>把元素转成 Python 列表，这样 print 能全部显示出来：list(net.parameters())、list(sd.keys())。</translation>
    </message>
    <message>
        <source>True where input {0} other, element by element, else False. The same as `input {1} other`; the result is a bool tensor, ready for masked_fill or where.</source>
        <translation>逐元素比较：input {0} other 的位置为 True，否则为 False。等同于 `input {1} other`；结果是 bool 张量，可以直接用于 masked_fill 或 where。</translation>
    </message>
    <message>
        <source>A copy converted to {0}, the same as `.to(torch.{0})`. Returns input itself when it already has that dtype.</source>
        <translation>转换为 {0} 的副本，等同于 `.to(torch.{0})`。如果已经是该 dtype，则直接返回 input 本身。</translation>
    </message>
    <message>
        <source>The same elements, read in row-major order, seen with a new shape. No data is copied: the result shares storage with input, so input&apos;s strides must allow it (after transpose they usually do not: use reshape or call contiguous first).</source>
        <translation>同样的元素，按行优先顺序读取，以新的形状来看。不复制数据：结果与 input 共享存储，因此 input 的步长（stride）必须允许这样做（transpose 之后通常不允许：请用 reshape，或先调用 contiguous）。</translation>
    </message>
    <message>
        <source>The same elements, read in row-major order, with a new shape. Like view, but copies the data when the strides do not allow a view.</source>
        <translation>同样的元素，按行优先顺序读取，换成新的形状。和 view 类似，但当步长不允许 view 时会复制数据。</translation>
    </message>
    <message>
        <source>Removes dimensions of size 1: a (1, 3, 1) tensor becomes (3,). With dim, only that dimension goes, and only if its size is 1.</source>
        <translation>去掉大小为 1 的维度：(1, 3, 1) 的张量变为 (3,)。指定 dim 时只去掉那一个维度，而且仅当它的大小为 1。</translation>
    </message>
    <message>
        <source>Inserts a dimension of size 1 at position dim: a (3,) tensor becomes (1, 3) with dim=0 or (3, 1) with dim=1. Often used to line tensors up for broadcasting.</source>
        <translation>在位置 dim 插入一个大小为 1 的维度：(3,) 的张量在 dim=0 时变为 (1, 3)，在 dim=1 时变为 (3, 1)。常用来对齐张量以便广播。</translation>
    </message>
    <message>
        <source>Merges the dimensions from start_dim to end_dim into one, in row-major order. With the defaults the result is 1-D.</source>
        <translation>把从 start_dim 到 end_dim 的维度按行优先顺序合并成一个。使用默认参数时结果是一维的。</translation>
    </message>
    <message>
        <source>Swaps two dimensions: element [i, j] moves to [j, i]. No data is copied; only the strides change, so the result is usually not contiguous.</source>
        <translation>交换两个维度：元素 [i, j] 移到 [j, i]。不复制数据，只改变步长，所以结果通常不是连续的。</translation>
    </message>
    <message>
        <source>Transposes a 2-D tensor (rows become columns); 0-D and 1-D tensors come back as they are.</source>
        <translation>转置一个二维张量（行变成列）；0 维和一维张量原样返回。</translation>
    </message>
    <message>
        <source>Reorders all dimensions at once: dims lists, for each new dimension, which old one it is. A view, like transpose.</source>
        <translation>一次性重排所有维度：dims 列出每个新维度对应哪个旧维度。和 transpose 一样是视图。</translation>
    </message>
    <message>
        <source>Returns input itself if its elements already lie in row-major order in memory, else a copy that does. view needs this after transpose or permute.</source>
        <translation>如果元素在内存中已经按行优先顺序排列，就返回 input 本身，否则返回一个这样排列的副本。transpose 或 permute 之后，view 需要它。</translation>
    </message>
    <message>
        <source>Stretches size-1 dimensions to a bigger size without copying: every element of the stretched dimension is the same memory (stride 0). Only size-1 dimensions can grow.</source>
        <translation>不复制数据地把大小为 1 的维度拉伸到更大的大小：被拉伸维度上的每个元素都是同一块内存（步长为 0）。只有大小为 1 的维度可以拉伸。</translation>
    </message>
    <message>
        <source>Tiles the tensor: repeats gives how many copies to lay side by side along each dimension. Unlike expand, it copies the data.</source>
        <translation>平铺张量：repeats 给出沿每个维度并排放置多少份副本。和 expand 不同，它会复制数据。</translation>
    </message>
    <message>
        <source>Picks elements along dim using index: for dim=1, out[i][j] = input[i][index[i][j]]. index has the same number of dimensions as input, and the result has index&apos;s shape.</source>
        <translation>用 index 沿 dim 选取元素：当 dim=1 时，out[i][j] = input[i][index[i][j]]。index 的维数与 input 相同，结果的形状与 index 相同。</translation>
    </message>
    <message>
        <source>Takes whole slices along dim at the positions listed in index, in that order (repeats allowed).</source>
        <translation>按 index 中列出的位置（按此顺序，允许重复）沿 dim 取出整个切片。</translation>
    </message>
    <message>
        <source>A copy of input with value written wherever mask is True. The usual way to hide attention scores: scores.masked_fill(mask == 0, float(&quot;-inf&quot;)).</source>
        <translation>input 的副本，在 mask 为 True 的地方写入 value。这是屏蔽注意力分数的常用方法：scores.masked_fill(mask == 0, float(&quot;-inf&quot;))。</translation>
    </message>
    <message>
        <source>In place: writes value into the tensor itself wherever mask is True, and returns it. Every view of the same storage sees the change.</source>
        <translation>原地操作：在 mask 为 True 的地方把 value 写入张量本身，并返回它。共享同一存储的所有视图都会看到这个变化。</translation>
    </message>
    <message>
        <source>Element by element, input where condition is True and other where it is False; all three are broadcast together. With only condition, the same as nonzero(as_tuple=True).</source>
        <translation>逐元素地，condition 为 True 处取 input，为 False 处取 other；三者一起广播。只传 condition 时，等同于 nonzero(as_tuple=True)。</translation>
    </message>
    <message>
        <source>The positions of the non-zero (or True) elements: one row per element, one column per dimension. Its size depends on the values, not just the shape.</source>
        <translation>非零（或为 True）元素的位置：每个元素一行，每个维度一列。它的大小取决于值，而不只是形状。</translation>
    </message>
    <message>
        <source>Keeps the lower triangle, on and below the diagonal, and sets the rest to 0. torch.tril(torch.ones(n, n)) is the causal mask of a decoder.</source>
        <translation>保留下三角（对角线及其下方），其余置 0。torch.tril(torch.ones(n, n)) 就是解码器的因果掩码。</translation>
    </message>
    <message>
        <source>Keeps the upper triangle, on and above the diagonal, and sets the rest to 0.</source>
        <translation>保留上三角（对角线及其上方），其余置 0。</translation>
    </message>
    <message>
        <source>Limits every element to [min, max]: smaller values become min, larger become max. At least one bound must be given.</source>
        <translation>把每个元素限制在 [min, max] 内：更小的值变为 min，更大的值变为 max。至少要给出一个界。</translation>
    </message>
    <message>
        <source>Joins tensors end to end along an existing dimension. All sizes must match except along dim.</source>
        <translation>沿一个已有的维度把张量首尾相接。除 dim 外，其他维度的大小必须都相同。</translation>
    </message>
    <message>
        <source>Joins same-shaped tensors along a new dimension: stacking three (2, 3) tensors on dim 0 gives (3, 2, 3).</source>
        <translation>沿一个新维度把形状相同的张量叠起来：在 dim 0 上叠三个 (2, 3) 张量得到 (3, 2, 3)。</translation>
    </message>
    <message>
        <source>Cuts input into chunks pieces of equal size along dim (the last may be smaller, and there may be fewer). The pieces are views.</source>
        <translation>沿 dim 把 input 切成 chunks 块大小相等的片段（最后一块可能更小，块数也可能更少）。这些片段都是视图。</translation>
    </message>
    <message>
        <source>Cuts input along dim into pieces of the given size (the last may be smaller), or into pieces with the listed sizes. The pieces are views.</source>
        <translation>沿 dim 把 input 切成给定大小的片段（最后一块可能更小），或切成列出的各个大小。这些片段都是视图。</translation>
    </message>
    <message>
        <source>Matrix product, the same as `input @ other`. 1-D tensors act as vectors; with more than two dimensions the leading ones are batch dimensions and broadcast.</source>
        <translation>矩阵乘积，等同于 `input @ other`。一维张量当作向量；超过两个维度时，前面的维度是批次维度，并会广播。</translation>
    </message>
    <message>
        <source>Matrix product of two 2-D tensors: (n, m) times (m, p) gives (n, p). No broadcasting.</source>
        <translation>两个二维张量的矩阵乘积：(n, m) 乘 (m, p) 得到 (n, p)。不广播。</translation>
    </message>
    <message>
        <source>A batch of matrix products: (b, n, m) times (b, m, p) gives (b, n, p). Both must be 3-D with the same batch size b.</source>
        <translation>一批矩阵乘积：(b, n, m) 乘 (b, m, p) 得到 (b, n, p)。两者都必须是三维的，且批次大小 b 相同。</translation>
    </message>
    <message>
        <source>Matrix times vector: (n, m) times (m,) gives (n,).</source>
        <translation>矩阵乘向量：(n, m) 乘 (m,) 得到 (n,)。</translation>
    </message>
    <message>
        <source>The dot product of two 1-D tensors of the same length: multiply element by element and add up. The result is 0-D.</source>
        <translation>两个长度相同的一维张量的点积：逐元素相乘再求和。结果是 0 维张量。</translation>
    </message>
    <message>
        <source>Einstein summation: name each dimension with a letter; letters missing after -&gt; are summed over. &apos;ij,jk-&gt;ik&apos; is a matrix product, &apos;ij-&gt;ji&apos; a transpose.</source>
        <translation>爱因斯坦求和：用一个字母命名每个维度；-&gt; 之后没有出现的字母会被求和。&apos;ij,jk-&gt;ik&apos; 是矩阵乘积，&apos;ij-&gt;ji&apos; 是转置。</translation>
    </message>
    <message>
        <source>Multiplies element by element, the same as `input * other`; shapes broadcast.</source>
        <translation>逐元素相乘，等同于 `input * other`；形状会广播。</translation>
    </message>
    <message>
        <source>Adds element by element, the same as `input + other`; shapes broadcast. With alpha, adds alpha * other.</source>
        <translation>逐元素相加，等同于 `input + other`；形状会广播。指定 alpha 时，加上 alpha * other。</translation>
    </message>
    <message>
        <source>In place: adds other to the tensor itself and returns it. The result must fit the tensor&apos;s dtype and shape (other may broadcast, the tensor may not grow).</source>
        <translation>原地操作：把 other 加到张量本身上并返回它。结果必须符合该张量的 dtype 和形状（other 可以广播，但张量本身不能变大）。</translation>
    </message>
    <message>
        <source>Subtracts element by element, the same as `input - other`; shapes broadcast.</source>
        <translation>逐元素相减，等同于 `input - other`；形状会广播。</translation>
    </message>
    <message>
        <source>Divides element by element, the same as `input / other`. The result is floating point even for integers, unless rounding_mode is &apos;trunc&apos; or &apos;floor&apos;.</source>
        <translation>逐元素相除，等同于 `input / other`。即使是整数，结果也是浮点数，除非 rounding_mode 为 &apos;trunc&apos; 或 &apos;floor&apos;。</translation>
    </message>
    <message>
        <source>equals</source>
        <translation>等于</translation>
    </message>
    <message>
        <source>differs from</source>
        <translation>不等于</translation>
    </message>
    <message>
        <source>is greater than</source>
        <translation>大于</translation>
    </message>
    <message>
        <source>is less than</source>
        <translation>小于</translation>
    </message>
    <message>
        <source>is greater than or equal to</source>
        <translation>大于或等于</translation>
    </message>
    <message>
        <source>is less than or equal to</source>
        <translation>小于或等于</translation>
    </message>
    <message>
        <source>Adds up the elements, over every dimension or only over dim. Integer and bool tensors are summed as int64.</source>
        <translation>把元素加起来，可以对所有维度求和，也可以只对 dim 求和。整数和 bool 张量按 int64 求和。</translation>
    </message>
    <message>
        <source>The average of the elements, over every dimension or only over dim. input must be floating point (or give dtype).</source>
        <translation>元素的平均值，可以对所有维度求，也可以只对 dim 求。input 必须是浮点类型（或指定 dtype）。</translation>
    </message>
    <message>
        <source>The standard deviation: how far elements typically are from their mean. By default divides by N - 1 (Bessel&apos;s correction).</source>
        <translation>标准差：元素通常离它们的均值有多远。默认除以 N - 1（贝塞尔校正）。</translation>
    </message>
    <message>
        <source>The position of the largest element, over the flattened tensor or along dim. The result is int64; for ties, the first position.</source>
        <translation>最大元素的位置，可以在展平后的张量上找，也可以沿 dim 找。结果是 int64；有并列时取第一个位置。</translation>
    </message>
    <message>
        <source>Turns scores into probabilities along dim: exponentiate, then divide by the sum, so each slice is positive and adds up to 1.</source>
        <translation>沿 dim 把分数变成概率：先取指数，再除以总和，使每个切片都为正且加起来等于 1。</translation>
    </message>
    <message>
        <source>1 / (1 + exp(-x)) element by element: squashes any number into (0, 1).</source>
        <translation>逐元素计算 1 / (1 + exp(-x))：把任意数压缩到 (0, 1) 之间。</translation>
    </message>
    <message>
        <source>Turns each class number c into a row of zeros with a 1 at position c. The result is int64 with one more dimension than input.</source>
        <translation>把每个类别编号 c 变成一行 0，并在位置 c 放一个 1。结果是 int64，比 input 多一个维度。</translation>
    </message>
    <message>
        <source>Draws positions at random, each with probability proportional to its weight in input (one row of weights per draw set). The result holds positions, not values.</source>
        <translation>随机抽取位置，每个位置被抽中的概率与它在 input 中的权重成正比（每组抽取对应一行权重）。结果是位置，而不是值。</translation>
    </message>
    <message>
        <source>The tensor converted to another dtype and/or moved to another device. Returns the tensor itself when nothing changes.</source>
        <translation>转换为另一种 dtype 和/或移到另一个设备上的张量。如果什么都没变，就返回张量本身。</translation>
    </message>
    <message>
        <source>The value of a one-element tensor as a plain Python number.</source>
        <translation>单元素张量的值，作为普通的 Python 数。</translation>
    </message>
    <message>
        <source>The tensor&apos;s values as (nested) Python lists of numbers.</source>
        <translation>张量的值，作为（嵌套的）Python 数字列表。</translation>
    </message>
    <message>
        <source>A copy with its own memory: changing it leaves input alone. Autograd still connects the copy to input.</source>
        <translation>拥有独立内存的副本：修改它不会影响 input。autograd 仍然把这个副本和 input 连在一起。</translation>
    </message>
    <message>
        <source>The same data, cut off from autograd: no gradient flows back through it. It shares memory with input (it is not a copy).</source>
        <translation>同样的数据，但与 autograd 断开：梯度不会经过它往回传。它和 input 共享内存（不是副本）。</translation>
    </message>
    <message>
        <source>The number of elements: the product of the sizes.</source>
        <translation>元素的个数：各维大小的乘积。</translation>
    </message>
    <message>
        <source>The shape as a torch.Size (a tuple), or the size of one dimension.</source>
        <translation>形状，类型为 torch.Size（一个元组），或者某一个维度的大小。</translation>
    </message>
    <message>
        <source>The number of dimensions (the rank): 0 for a scalar, 2 for a matrix.</source>
        <translation>维数（秩）：标量为 0，矩阵为 2。</translation>
    </message>
</context>
<context>
    <name>OpView</name>
    <message>
        <source>The selected step</source>
        <extracomment>What one card shows: the tensor, its name, its role, which part of the value it is (None for a lone tensor) and its title (None: the name).</extracomment>
        <translation>所选步骤</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Which iteration of the loop to explain: the ones the kernel kept (the first 100, an even sample, the last)</source>
        <translation>要讲解循环的哪一次迭代：内核保留的那些（前 100 次、均匀抽样的若干次、最后一次）</translation>
    </message>
    <message>
        <source>What the op does</source>
        <translation>此运算的作用</translation>
    </message>
    <message>
        <source>Why the step failed, and what to change</source>
        <translation>步骤失败的原因，以及需要修改什么</translation>
    </message>
    <message>
        <source>The inputs on the left make the output on the right</source>
        <translation>左边的输入产生右边的输出</translation>
    </message>
    <message>
        <source>no output:
the step failed</source>
        <translation>无输出：
步骤失败</translation>
    </message>
    <message>
        <source>The step raised an error, so there is nothing to show</source>
        <translation>该步骤引发了错误，因此没有可显示的内容</translation>
    </message>
    <message>
        <source>output element</source>
        <translation>输出元素</translation>
    </message>
    <message>
        <source>the inputs it came from</source>
        <translation>它来自的输入</translation>
    </message>
    <message>
        <source>index or mask entries that chose them</source>
        <translation>选中它们的索引或掩码项</translation>
    </message>
    <message>
        <source>Hover or click an output cell to see where it came from</source>
        <translation>悬停或点击输出单元格以查看它的来源</translation>
    </message>
    <message>
        <source>Where the hovered output element came from</source>
        <translation>鼠标所在输出元素的来源</translation>
    </message>
    <message>
        <source>A drawing of what this op does</source>
        <translation>此运算作用的图示</translation>
    </message>
    <message>
        <source>Select a step to see how its op works.</source>
        <extracomment>The kernel value whose operands were asked for (``step_parts``), and the answer. What the kernel found inside a loop or a function: ((value, iteration), answer). The kernel value whose large tensors were asked for, and the one on its way.</extracomment>
        <translation>选择一个步骤以查看其运算如何工作。</translation>
    </message>
    <message>
        <source>Why: {0}</source>
        <translation>原因：{0}</translation>
    </message>
    <message>
        <source>Fix: {0}</source>
        <translation>修正：{0}</translation>
    </message>
    <message>
        <source>Not run.</source>
        <translation>未运行。</translation>
    </message>
    <message>
        <source>input</source>
        <extracomment>What a tensor is to its step, by the parameter it is given as (the keyword torch uses, or ``left``/``right``/``operand`` for an operator&apos;s), in words a translation can take.</extracomment>
        <translation>输入</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Nothing to draw: {0}</source>
        <translation>无可绘制内容：{0}</translation>
    </message>
    <message>
        <source>The result is not a tensor: {0}</source>
        <translation>结果不是张量：{0}</translation>
    </message>
    <message>
        <source>Inside the loop (line {0}), in iteration {1}.</source>
        <extracomment>numpy&apos;s dtype for the values of a loop sample&apos;s small tensor (``summary``&apos;s ``values``).</extracomment>
        <translation>在循环内（第 {0} 行），第 {1} 次迭代。</translation>
    </message>
    <message>
        <source>Inside {0} (line {1}), called by this step: its parameters hold the call&apos;s arguments.</source>
        <translation>在 {0} 内（第 {1} 行），由这一步调用：它的参数取调用时传入的实参。</translation>
    </message>
    <message>
        <source>Code: the catalogue has no explanation for it yet. The Tensor viewer shows the values it left.</source>
        <translation>代码：目录里还没有对它的讲解。张量查看器显示它留下的值。</translation>
    </message>
    <message>
        <source>The op statement inside it ({0}) does not give again what the recipe made from the values the kernel kept, so it is not explained here.</source>
        <translation>用内核保留的值重新计算其中的运算语句（{0}），得不到配方当时算出的结果，因此这里不作讲解。</translation>
    </message>
    <message>
        <source>Nothing inside it to explain: {0}</source>
        <translation>其中没有可讲解的运算：{0}</translation>
    </message>
    <message>
        <source>Copying its values from the kernel…</source>
        <translation>正在从内核复制它的值…</translation>
    </message>
    <message>
        <source>A later statement changed {0} in place, so they cannot be shown as this step saw them. The Tensor viewer shows them now.</source>
        <translation>后面的语句原地修改了 {0}，所以无法按这一步看到的样子显示它们。张量查看器显示它们现在的值。</translation>
    </message>
    <message>
        <source>{0} has {1} elements: too many to explain element by element here ({2} at most). The Tensor viewer shows it.</source>
        <translation>{0} 有 {1} 个元素：太多，无法在这里逐个元素讲解（最多 {2} 个）。张量查看器会显示它。</translation>
    </message>
    <message>
        <source>A new tensor: its elements do not come from other tensors of the recipe.</source>
        <translation>新张量：它的元素并非来自配方中的其他张量。</translation>
    </message>
    <message>
        <source>Hover or click an output cell to light up the input elements it came from.</source>
        <translation>悬停或点击输出单元格，点亮它所来自的输入元素。</translation>
    </message>
    <message>
        <source>Could not trace this element: {0}</source>
        <translation>无法追踪此元素：{0}</translation>
    </message>
    <message>
        <source>{0}: a new tensor, made by the op rather than taken from other tensors of the recipe.</source>
        <translation>{0}：新张量，由运算生成，而不是取自配方中的其他张量。</translation>
    </message>
    <message>
        <source>{0} comes from no input element: the op made it (a zero, a fill value).</source>
        <translation>{0} 不来自任何输入元素：它由运算生成（零或填充值）。</translation>
    </message>
    <message>
        <source> and {0} more</source>
        <translation> 以及另外 {0} 个</translation>
    </message>
    <message>
        <source>{0} comes from {1}.</source>
        <translation>{0} 来自 {1}。</translation>
    </message>
    <message>
        <source>Chosen by {0}.</source>
        <translation>由 {0} 选中。</translation>
    </message>
    <message>
        <source>other</source>
        <translation>另一个输入</translation>
    </message>
    <message>
        <source>left</source>
        <translation>左操作数</translation>
    </message>
    <message>
        <source>right</source>
        <translation>右操作数</translation>
    </message>
    <message>
        <source>operand</source>
        <translation>操作数</translation>
    </message>
    <message>
        <source>index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>condition</source>
        <translation>条件</translation>
    </message>
    <message>
        <source>tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>tensors</source>
        <translation>张量序列</translation>
    </message>
    <message>
        <source>operands</source>
        <translation>操作数序列</translation>
    </message>
    <message>
        <source>mat2</source>
        <translation>第二个矩阵</translation>
    </message>
    <message>
        <source>vec</source>
        <translation>向量</translation>
    </message>
    <message>
        <source>data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>parameter {0}</source>
        <translation>参数 {0}</translation>
    </message>
</context>
<context>
    <name>OutputPane</name>
    <message>
        <source>What the recipe prints, the same as &apos;python recipe.py&apos;</source>
        <translation>配方打印的内容，与 python recipe.py 的输出相同</translation>
    </message>
</context>
<context>
    <name>Param</name>
    <message>
        <source>d(something)/d(this tensor), the same shape as it. Needed when the tensor has more than one element; None for a scalar (it means 1).</source>
        <translation>d(某个量)/d(此张量)，形状与它相同。张量多于一个元素时必须给出；标量用 None（表示 1）。</translation>
    </message>
    <message>
        <source>Keep the graph&apos;s saved tensors so backward can run through it again; None means the same as create_graph.</source>
        <translation>保留计算图中保存的张量，以便 backward 能再次经过它；None 表示与 create_graph 相同。</translation>
    </message>
    <message>
        <source>Record the backward pass too, for gradients of gradients.</source>
        <translation>同时记录反向传播本身，用于求梯度的梯度。</translation>
    </message>
    <message>
        <source>True to start recording operations on this tensor, False to stop.</source>
        <translation>True 开始记录对此张量的运算，False 停止记录。</translation>
    </message>
    <message>
        <source>The tensor to work on.</source>
        <translation>要处理的张量。</translation>
    </message>
    <message>
        <source>Element type; None picks torch&apos;s default (float32, or int64 for integers).</source>
        <translation>元素类型；None 使用 torch 的默认值（float32，整数为 int64）。</translation>
    </message>
    <message>
        <source>Where the tensor lives: cpu, cuda:N or mps.</source>
        <translation>张量所在的设备：cpu、cuda:N 或 mps。</translation>
    </message>
    <message>
        <source>Record operations on this tensor for autograd.</source>
        <translation>为 autograd 记录对此张量的运算。</translation>
    </message>
    <message>
        <source>The tensor whose shape (and dtype, device) is copied.</source>
        <translation>复制其形状（以及 dtype 和设备）的张量。</translation>
    </message>
    <message>
        <source>The shape, one integer per dimension.</source>
        <translation>形状，每个维度一个整数。</translation>
    </message>
    <message>
        <source>A number or nested lists of numbers.</source>
        <translation>一个数，或嵌套的数字列表。</translation>
    </message>
    <message>
        <source>The shape, as a tuple.</source>
        <translation>形状，以元组给出。</translation>
    </message>
    <message>
        <source>The value every element gets.</source>
        <translation>每个元素都取的值。</translation>
    </message>
    <message>
        <source>Number of rows.</source>
        <translation>行数。</translation>
    </message>
    <message>
        <source>Number of columns; n when None.</source>
        <translation>列数；None 时等于 n。</translation>
    </message>
    <message>
        <source>First value.</source>
        <translation>第一个值。</translation>
    </message>
    <message>
        <source>Stop before this value.</source>
        <translation>到此值之前停止（不含）。</translation>
    </message>
    <message>
        <source>Gap between values.</source>
        <translation>相邻值的间隔。</translation>
    </message>
    <message>
        <source>Last value, included.</source>
        <translation>最后一个值（包含）。</translation>
    </message>
    <message>
        <source>How many values.</source>
        <translation>值的个数。</translation>
    </message>
    <message>
        <source>Exponent of the first value.</source>
        <translation>第一个值的指数。</translation>
    </message>
    <message>
        <source>Exponent of the last value.</source>
        <translation>最后一个值的指数。</translation>
    </message>
    <message>
        <source>The base raised to each exponent.</source>
        <translation>取各指数次幂的底数。</translation>
    </message>
    <message>
        <source>Smallest value, included.</source>
        <translation>最小值（包含）。</translation>
    </message>
    <message>
        <source>Permute 0, 1, ..., n-1.</source>
        <translation>打乱 0, 1, ..., n-1 的顺序。</translation>
    </message>
    <message>
        <source>Mean of the distribution.</source>
        <translation>分布的均值。</translation>
    </message>
    <message>
        <source>Standard deviation.</source>
        <translation>标准差。</translation>
    </message>
    <message>
        <source>Any non-negative integer.</source>
        <translation>任意非负整数。</translation>
    </message>
    <message>
        <source>What to print.</source>
        <translation>要打印的内容。</translation>
    </message>
    <message>
        <source>Element type; None keeps the dtype of the tensor it is called on.</source>
        <translation>元素类型；None 沿用调用它的张量的 dtype。</translation>
    </message>
    <message>
        <source>Where it lives; None keeps the device of the tensor it is called on.</source>
        <translation>所在设备；None 沿用调用它的张量的设备。</translation>
    </message>
    <message>
        <source>Record operations on the new tensor for autograd.</source>
        <translation>为 autograd 记录对新张量的运算。</translation>
    </message>
    <message>
        <source>Either sizes, torch.Tensor(2, 3) (uninitialised memory), or data, torch.Tensor([1, 2, 3]).</source>
        <translation>可以是尺寸，如 torch.Tensor(2, 3)（未初始化的内存），也可以是数据，如 torch.Tensor([1, 2, 3])。</translation>
    </message>
    <message>
        <source>Where the module&apos;s tensors live: cpu, cuda:N or mps.</source>
        <translation>模块的张量所在的设备：cpu、cuda:N 或 mps。</translation>
    </message>
    <message>
        <source>Element type of the module&apos;s tensors; None picks torch&apos;s default.</source>
        <translation>模块张量的元素类型；None 使用 torch 的默认值。</translation>
    </message>
    <message>
        <source>Overwrite the input instead of making a new tensor.</source>
        <translation>直接覆盖输入，而不是新建张量。</translation>
    </message>
    <message>
        <source>Size of each input&apos;s last dimension.</source>
        <translation>每个输入最后一个维度的大小。</translation>
    </message>
    <message>
        <source>Size of each output&apos;s last dimension.</source>
        <translation>每个输出最后一个维度的大小。</translation>
    </message>
    <message>
        <source>Learn an additive bias as well.</source>
        <translation>同时学习一个加性偏置。</translation>
    </message>
    <message>
        <source>How many ids: rows of the table.</source>
        <translation>id 的个数：即表的行数。</translation>
    </message>
    <message>
        <source>Length of each id&apos;s vector.</source>
        <translation>每个 id 对应向量的长度。</translation>
    </message>
    <message>
        <source>An id whose vector stays zero and gets no gradient; None for none.</source>
        <translation>一个向量保持为零且不接收梯度的 id；None 表示没有。</translation>
    </message>
    <message>
        <source>Probability that an element is zeroed.</source>
        <translation>元素被置零的概率。</translation>
    </message>
    <message>
        <source>The modules, in the order they run.</source>
        <translation>各模块，按运行顺序排列。</translation>
    </message>
    <message>
        <source>A list of modules.</source>
        <translation>模块列表。</translation>
    </message>
    <message>
        <source>A dict of modules: {&quot;name&quot;: module, ...}.</source>
        <translation>模块字典：{&quot;name&quot;: module, ...}。</translation>
    </message>
    <message>
        <source>The tensor to wrap; its values are kept.</source>
        <translation>要包装的张量；其值保持不变。</translation>
    </message>
    <message>
        <source>Record operations for autograd.</source>
        <translation>为 autograd 记录运算。</translation>
    </message>
    <message>
        <source>The tensor to check.</source>
        <translation>要检查的张量。</translation>
    </message>
    <message>
        <source>The tensor to compare with.</source>
        <translation>用来比较的张量。</translation>
    </message>
    <message>
        <source>Relative tolerance: a share of |other|.</source>
        <translation>相对容差：|other| 的一个比例。</translation>
    </message>
    <message>
        <source>Absolute tolerance, added to rtol * |other|.</source>
        <translation>绝对容差，加到 rtol * |other| 上。</translation>
    </message>
    <message>
        <source>Count NaN as equal to NaN.</source>
        <translation>把 NaN 视为等于 NaN。</translation>
    </message>
    <message>
        <source>The dimension to reduce; None gives the largest element of all.</source>
        <translation>要归约的维度；None 给出所有元素中的最大值。</translation>
    </message>
    <message>
        <source>Keep the reduced dimension with size 1.</source>
        <translation>以大小 1 保留被归约的维度。</translation>
    </message>
    <message>
        <source>The dimension to reduce; None gives the smallest element of all.</source>
        <translation>要归约的维度；None 给出所有元素中的最小值。</translation>
    </message>
    <message>
        <source>A tensor, list or module.</source>
        <translation>张量、列表或模块。</translation>
    </message>
    <message>
        <source>What to list: parameters(), keys(), a tensor ...</source>
        <translation>要转成列表的对象：parameters()、keys()、张量……</translation>
    </message>
    <message>
        <source>A tensor or a number; it is broadcast against input.</source>
        <translation>张量或数；与 input 进行广播。</translation>
    </message>
    <message>
        <source>Keep each reduced dimension with size 1, so the result still lines up with input.</source>
        <translation>以大小 1 保留每个被归约的维度，使结果仍能与 input 对齐。</translation>
    </message>
    <message>
        <source>Convert input to this dtype first; None keeps it.</source>
        <translation>先把 input 转为此 dtype；None 保持不变。</translation>
    </message>
    <message>
        <source>Memory layout of the copy; the default keeps input&apos;s.</source>
        <translation>副本的内存布局；默认沿用 input 的布局。</translation>
    </message>
    <message>
        <source>The dimension(s) to {0} over; None means all.</source>
        <translation>沿其{0}的维度；None 表示所有维度。</translation>
    </message>
    <message>
        <source>The new shape; one entry may be -1 to be worked out.</source>
        <translation>新形状；其中一项可以是 -1，由其余各项推算。</translation>
    </message>
    <message>
        <source>The size-1 dimension(s) to remove; None removes all.</source>
        <translation>要移除的大小为 1 的维度；None 移除全部。</translation>
    </message>
    <message>
        <source>Where the new size-1 dimension goes.</source>
        <translation>新的大小为 1 的维度插入的位置。</translation>
    </message>
    <message>
        <source>First dimension to merge.</source>
        <translation>要合并的第一个维度。</translation>
    </message>
    <message>
        <source>Last dimension to merge.</source>
        <translation>要合并的最后一个维度。</translation>
    </message>
    <message>
        <source>One dimension to swap.</source>
        <translation>要交换的一个维度。</translation>
    </message>
    <message>
        <source>The other dimension to swap.</source>
        <translation>要交换的另一个维度。</translation>
    </message>
    <message>
        <source>The new order of the dimensions, each named once.</source>
        <translation>维度的新顺序，每个维度恰好出现一次。</translation>
    </message>
    <message>
        <source>The new shape; -1 keeps a dimension&apos;s size.</source>
        <translation>新形状；-1 保持该维度的大小。</translation>
    </message>
    <message>
        <source>How many times to tile along each dimension.</source>
        <translation>沿每个维度平铺的次数。</translation>
    </message>
    <message>
        <source>The dimension the index values point along.</source>
        <translation>index 中的值所沿的维度。</translation>
    </message>
    <message>
        <source>int64 positions; the result has index&apos;s shape.</source>
        <translation>int64 位置；结果的形状与 index 相同。</translation>
    </message>
    <message>
        <source>Use a sparse gradient for input.</source>
        <translation>对 input 使用稀疏梯度。</translation>
    </message>
    <message>
        <source>The dimension to select along.</source>
        <translation>沿其选取的维度。</translation>
    </message>
    <message>
        <source>A 1-D int64 tensor of positions.</source>
        <translation>由位置组成的一维 int64 张量。</translation>
    </message>
    <message>
        <source>A bool tensor, broadcast against input.</source>
        <translation>布尔张量，与 input 进行广播。</translation>
    </message>
    <message>
        <source>What goes where mask is True.</source>
        <translation>填入 mask 为 True 之处的值。</translation>
    </message>
    <message>
        <source>A bool tensor, broadcast against the tensor.</source>
        <translation>布尔张量，与该张量进行广播。</translation>
    </message>
    <message>
        <source>A bool tensor choosing between input and other.</source>
        <translation>在 input 和 other 之间选择的布尔张量。</translation>
    </message>
    <message>
        <source>Taken where condition is True.</source>
        <translation>condition 为 True 处取此值。</translation>
    </message>
    <message>
        <source>Taken where condition is False.</source>
        <translation>condition 为 False 处取此值。</translation>
    </message>
    <message>
        <source>One 1-D index tensor per dimension instead of one 2-D tensor.</source>
        <translation>每个维度一个一维索引张量，而不是一个二维张量。</translation>
    </message>
    <message>
        <source>0 is the main diagonal; positive moves it up and right.</source>
        <translation>0 是主对角线；正数向右上方移动。</translation>
    </message>
    <message>
        <source>Lower bound; None for none.</source>
        <translation>下界；None 表示没有。</translation>
    </message>
    <message>
        <source>Upper bound; None for none.</source>
        <translation>上界；None 表示没有。</translation>
    </message>
    <message>
        <source>The tensors, in order, as a tuple or list.</source>
        <translation>按顺序排列的张量，以元组或列表给出。</translation>
    </message>
    <message>
        <source>The existing dimension to join along.</source>
        <translation>沿其拼接的已有维度。</translation>
    </message>
    <message>
        <source>Tensors of exactly the same shape.</source>
        <translation>形状完全相同的张量。</translation>
    </message>
    <message>
        <source>Where the new dimension goes.</source>
        <translation>新维度插入的位置。</translation>
    </message>
    <message>
        <source>How many pieces, at most.</source>
        <translation>最多切成几块。</translation>
    </message>
    <message>
        <source>The dimension to cut.</source>
        <translation>要切分的维度。</translation>
    </message>
    <message>
        <source>The tensor to cut.</source>
        <translation>要切分的张量。</translation>
    </message>
    <message>
        <source>The size of each piece, or a list of sizes that add up to the length. (The method names it split_size.)</source>
        <translation>每块的大小，或一个总和等于长度的尺寸列表。（方法形式中叫 split_size。）</translation>
    </message>
    <message>
        <source>The right-hand tensor.</source>
        <translation>右侧的张量。</translation>
    </message>
    <message>
        <source>The right-hand matrix, (m, p).</source>
        <translation>右侧的矩阵，形状 (m, p)。</translation>
    </message>
    <message>
        <source>The right-hand batch, (b, m, p).</source>
        <translation>右侧的批次，形状 (b, m, p)。</translation>
    </message>
    <message>
        <source>A 1-D tensor of length m.</source>
        <translation>长度为 m 的一维张量。</translation>
    </message>
    <message>
        <source>A 1-D tensor of the same length.</source>
        <translation>长度相同的一维张量。</translation>
    </message>
    <message>
        <source>Subscripts such as &apos;ij,jk-&gt;ik&apos;.</source>
        <translation>下标表达式，如 &apos;ij,jk-&gt;ik&apos;。</translation>
    </message>
    <message>
        <source>One tensor per subscript group.</source>
        <translation>每组下标对应一个张量。</translation>
    </message>
    <message>
        <source>other is multiplied by alpha first.</source>
        <translation>other 先乘以 alpha。</translation>
    </message>
    <message>
        <source>None for true division, &apos;trunc&apos; or &apos;floor&apos;.</source>
        <translation>None 表示真除法，也可以是 &apos;trunc&apos; 或 &apos;floor&apos;。</translation>
    </message>
    <message>
        <source>add up</source>
        <translation>求和</translation>
    </message>
    <message>
        <source>average</source>
        <translation>求平均</translation>
    </message>
    <message>
        <source>measure the spread</source>
        <translation>度量离散程度</translation>
    </message>
    <message>
        <source>Divide by N - correction: 1 is the sample std, 0 the population std.</source>
        <translation>除以 N - correction：1 为样本标准差，0 为总体标准差。</translation>
    </message>
    <message>
        <source>Keep each reduced dimension with size 1.</source>
        <translation>以大小 1 保留每个被归约的维度。</translation>
    </message>
    <message>
        <source>The dimension to search; None searches the flattened tensor.</source>
        <translation>要搜索的维度；None 在展平后的张量中搜索。</translation>
    </message>
    <message>
        <source>The dimension that sums to 1.</source>
        <translation>和为 1 的那个维度。</translation>
    </message>
    <message>
        <source>int64 class numbers.</source>
        <translation>int64 类别编号。</translation>
    </message>
    <message>
        <source>Length of each one-hot row; -1 means one more than the largest class in input.</source>
        <translation>每个 one-hot 行的长度；-1 表示 input 中最大类别加一。</translation>
    </message>
    <message>
        <source>How many draws per row.</source>
        <translation>每行抽取的次数。</translation>
    </message>
    <message>
        <source>Allow the same position to be drawn more than once.</source>
        <translation>允许同一位置被抽取多次。</translation>
    </message>
    <message>
        <source>Where the result lives: cpu, cuda:N or mps.</source>
        <translation>结果所在的设备：cpu、cuda:N 或 mps。</translation>
    </message>
    <message>
        <source>The element type of the result.</source>
        <translation>结果的元素类型。</translation>
    </message>
    <message>
        <source>Copy even when nothing changes.</source>
        <translation>即使没有变化也复制一份。</translation>
    </message>
    <message>
        <source>One dimension; None gives the whole shape.</source>
        <translation>某一个维度；None 给出整个形状。</translation>
    </message>
</context>
<context>
    <name>ParamForm</name>
    <message>
        <source>Optional; the default is {0}.</source>
        <extracomment>Error text in the light theme; ``widgets.common.theme.error_style()`` follows the theme in use.</extracomment>
        <translation>可选；默认值为 {0}。</translation>
    </message>
    <message>
        <source>{0}: {1} cannot be edited in this form</source>
        <translation>{0}：{1} 无法在此表单中编辑</translation>
    </message>
    <message>
        <source>{0}: not a parameter of {1}</source>
        <translation>{0}：不是 {1} 的参数</translation>
    </message>
</context>
<context>
    <name>ShapeChangeExtra</name>
    <message>
        <source>One box per dimension, with its size; yellow boxes are size-1 dimensions</source>
        <translation>每个维度一个方框，标有其大小；黄色方框为大小为 1 的维度</translation>
    </message>
    <message>
        <source>A size-1 dimension holds no extra elements: adding or removing one changes the shape, never the data.</source>
        <translation>大小为 1 的维度不包含额外元素：添加或移除它只改变形状，从不改变数据。</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>removed dim {0}</source>
        <translation>移除了维度 {0}</translation>
    </message>
    <message>
        <source>dim {0}</source>
        <translation>维度 {0}</translation>
    </message>
    <message>
        <source>new dim {0}</source>
        <translation>新维度 {0}</translation>
    </message>
    <message>
        <source>{0}.shape</source>
        <translation>{0}.shape</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Every keyboard shortcut, from the window&apos;s menus</source>
        <translation>窗口菜单中的所有键盘快捷键</translation>
    </message>
    <message>
        <source>Close this list</source>
        <translation>关闭此列表</translation>
    </message>
</context>
<context>
    <name>SourceColourExtra</name>
    <message>
        <source>The colour of each source tensor</source>
        <translation>每个源张量的颜色</translation>
    </message>
    <message>
        <source>Where each element came from</source>
        <translation>每个元素的来源</translation>
    </message>
    <message>
        <source>{0} lays the tensors side by side along dim {1}: each output cell has the colour of the tensor it came from.</source>
        <translation>{0} 沿维度 {1} 把张量并排拼接：每个输出单元格的颜色与其来源张量相同。</translation>
    </message>
</context>
<context>
    <name>StepsPanel</name>
    <message>
        <source>The recipe&apos;s steps, in order. Click one to see its result; double-click a name to rename it.</source>
        <extracomment>The palette role (``app.palette``) that colours each step status; the marks below tell the statuses apart without colour. A row&apos;s (text, status, tooltip, editable), to leave a row that has not changed alone. The most rows written at once beyond those on screen (a few milliseconds&apos; work).</extracomment>
        <translation>配方的步骤（按顺序）。单击查看结果；双击名称可重命名。</translation>
    </message>
    <message>
        <source>The code is not Python yet: these are the steps of the last text that read as Python.</source>
        <extracomment>The run, its steps and its number of changes the rows last showed: a report redraws only the rows of the steps it changed.</extracomment>
        <translation>代码还不是合法的 Python：这些是最后一次能作为 Python 读取的文本的步骤。</translation>
    </message>
    <message>
        <source>Move the selected step up (Alt+Up)</source>
        <translation>上移所选步骤（Alt+Up）</translation>
    </message>
    <message>
        <source>Move the selected step down (Alt+Down)</source>
        <translation>下移所选步骤（Alt+Down）</translation>
    </message>
    <message>
        <source>Delete the selected step (Del); steps that read it will show an error</source>
        <translation>删除所选步骤（Del）；读取它的步骤将显示错误</translation>
    </message>
    <message>
        <source>Move step</source>
        <translation>移动步骤</translation>
    </message>
    <message>
        <source>Delete step</source>
        <translation>删除步骤</translation>
    </message>
    <message>
        <source>Rename step</source>
        <translation>重命名步骤</translation>
    </message>
    <message>
        <source>Code: the kernel runs it, as python does.</source>
        <translation>代码：由内核运行，与 python 运行的方式相同。</translation>
    </message>
</context>
<context>
    <name>StorageOrderExtra</name>
    <message>
        <source>Big number: the element&apos;s place in row-major order. @n: where it sits in memory. Blue cells are in memory order, red ones are not.</source>
        <translation>大数字：元素在行优先顺序中的位置。@n：它在内存中的位置。蓝色单元格符合内存顺序，红色的不符合。</translation>
    </message>
    <message>
        <source>Row-major order and memory</source>
        <translation>行优先顺序与内存</translation>
    </message>
    <message>
        <source>{0}: strides {1}</source>
        <translation>{0}：strides {1}</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>The same memory read with new strides: no element moved. {0} numbers its elements (@: place in memory) in the same order as {1}.</source>
        <translation>用新的 strides 读取同一块内存：没有元素移动。{0} 对其元素的编号（@：内存中的位置）与 {1} 的顺序相同。</translation>
    </message>
    <message>
        <source>{1} was not in row-major order in memory, so {0} is a copy: new memory, filled in row-major order.</source>
        <translation>{1} 在内存中不是行优先顺序，因此 {0} 是一个副本：新的内存，按行优先顺序填充。</translation>
    </message>
    <message>
        <source>{0}&apos;s elements lie in memory in row-major order (@0, @1, ...), so any shape with {1} elements can view them.</source>
        <translation>{0} 的元素在内存中按行优先顺序排列（@0, @1, ...），因此任何含 {1} 个元素的形状都可以作为它的视图。</translation>
    </message>
    <message>
        <source>Big numbers count {0}&apos;s elements in row-major order; @ is where each sits in memory. They disagree (red cells): the elements are not in row-major order in memory, so view cannot give them a new shape without copying. Call .contiguous() first, or use reshape, which copies when it must.</source>
        <translation>大数字按行优先顺序给 {0} 的元素编号；@ 表示每个元素在内存中的位置。两者不一致（红色单元格）：元素在内存中不是行优先顺序，因此 view 无法在不复制的情况下给它们新的形状。请先调用 .contiguous()，或使用 reshape（必要时会复制）。</translation>
    </message>
</context>
<context>
    <name>StorageView</name>
    <message>
        <source>tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>strides</source>
        <translation>strides</translation>
    </message>
    <message>
        <source>offset</source>
        <translation>offset</translation>
    </message>
    <message>
        <source>data_ptr</source>
        <translation>data_ptr</translation>
    </message>
    <message>
        <source>The recipe&apos;s tensors, grouped by the memory (storage) they read. A view shares its base&apos;s memory; a copy has its own.</source>
        <translation>配方中的张量，按其读取的内存（storage）分组。视图与其基张量共享内存；副本拥有自己的内存。</translation>
    </message>
    <message>
        <source>The tensor&apos;s name in the recipe</source>
        <translation>张量在配方中的名称</translation>
    </message>
    <message>
        <source>Whether it owns its memory or views another tensor&apos;s</source>
        <translation>它拥有自己的内存，还是另一个张量内存的视图</translation>
    </message>
    <message>
        <source>Size of each dimension</source>
        <translation>每个维度的大小</translation>
    </message>
    <message>
        <source>Elements to skip in memory to step once along each dimension</source>
        <translation>沿每个维度前进一步需要在内存中跳过的元素数</translation>
    </message>
    <message>
        <source>Where its first element sits in the memory, in elements</source>
        <translation>它的第一个元素在内存中的位置（以元素计）</translation>
    </message>
    <message>
        <source>The address of its first element</source>
        <translation>它第一个元素的地址</translation>
    </message>
    <message>
        <source>Which tensors share memory with the selected one</source>
        <translation>哪些张量与所选张量共享内存</translation>
    </message>
    <message>
        <source>memory of {0}</source>
        <translation>{0} 的内存</translation>
    </message>
    <message>
        <source>shared by {0} tensors</source>
        <translation>由 {0} 个张量共享</translation>
    </message>
    <message>
        <source>one tensor</source>
        <translation>一个张量</translation>
    </message>
    <message>
        <source>view of {0}</source>
        <translation>{0} 的视图</translation>
    </message>
    <message>
        <source>base of {0} view(s)</source>
        <translation>{0} 个视图的基张量</translation>
    </message>
    <message>
        <source>own memory</source>
        <translation>独立内存</translation>
    </message>
    <message>
        <source>Select to see {0} beside the tensor it shares memory with</source>
        <translation>选择以将 {0} 与共享内存的张量并排查看</translation>
    </message>
    <message>
        <source>Select a tensor to see which tensors share its memory.</source>
        <translation>选择一个张量，查看哪些张量与它共享内存。</translation>
    </message>
    <message>
        <source>Asking the kernel for {0}…</source>
        <translation>正在向内核询问 {0}…</translation>
    </message>
    <message>
        <source>{0} shares memory with: {1}. It is too large to show here; the Tensor viewer shows its values.</source>
        <translation>{0} 与这些张量共享内存：{1}。它太大，无法在这里显示；张量查看器会显示它的值。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>已选</translation>
    </message>
    <message>
        <source>{0} has memory of its own: no other tensor of the recipe reads it, so changing {0} in place changes nothing else.</source>
        <translation>{0} 拥有自己的内存：配方中没有其他张量读取它，因此原地修改 {0} 不会影响其他张量。</translation>
    </message>
    <message>
        <source>base</source>
        <translation>基张量</translation>
    </message>
    <message>
        <source>view</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>{0} shares memory with {1}. Yellow: the elements of {2} that {3} reads. An in-place change through either one (such as {3}.add_(1)) shows in both.</source>
        <translation>{0} 与 {1} 共享内存。黄色：{3} 读取的 {2} 的元素。通过任一方的原地修改（例如 {3}.add_(1)）都会在两者中体现。</translation>
    </message>
</context>
<context>
    <name>TensorCard</name>
    <message>
        <source>shape: the size of each dimension; strides: how many elements to skip in memory to step along each one</source>
        <extracomment>What a mark means, and its colour: the order is the order of precedence. Colours told apart at a glance, for &quot;which source tensor&quot; maps. Widest and tallest a grid asks to be before it scrolls.</extracomment>
        <translation>shape：每个维度的大小；strides：沿每个维度前进一步需要在内存中跳过的元素数</translation>
    </message>
    <message>
        <source>{0}: {1} of the step</source>
        <translation>{0}：该步骤的 {1}</translation>
    </message>
    <message>
        <source>shape {0} · {2}
strides {1}</source>
        <translation>shape {0} · {2}
strides {1}</translation>
    </message>
    <message>
        <source>{0}&apos;s elements; hover one for its index and value</source>
        <translation>{0} 的元素；悬停可查看索引和值</translation>
    </message>
</context>
<context>
    <name>TimingView</name>
    <message>
        <source>Time it</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>Run the selected step many times on every device and show the median time of one run.</source>
        <translation>在每个设备上多次运行所选步骤，并显示单次运行的中位时间。</translation>
    </message>
    <message>
        <source>Measuring: each device takes a moment.</source>
        <translation>正在测量：每个设备需要一点时间。</translation>
    </message>
    <message>
        <source>What was timed.</source>
        <translation>计时的对象。</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>Median time of one run of the step on each device; hover a time for its spread (interquartile range). Runs is how many times the step ran to measure it.</source>
        <translation>该步骤在各设备上单次运行的中位时间；悬停在时间上可查看其离散程度（四分位距）。“次数”是为测量而运行该步骤的次数。</translation>
    </message>
    <message>
        <source>How to read the table.</source>
        <translation>如何阅读此表。</translation>
    </message>
    <message>
        <source>Only the CPU is available on this machine. </source>
        <translation>本机只有 CPU 可用。</translation>
    </message>
    <message>
        <source>A GPU wins on big tensors and heavy ops such as a large matmul; on small tensors the CPU usually wins, because starting work on the GPU costs more than the arithmetic. Copying the inputs to each device is not timed.</source>
        <translation>GPU 在大张量和繁重运算（如大型 matmul）上更快；在小张量上通常 CPU 更快，因为在 GPU 上启动计算的开销比运算本身还大。把输入复制到各设备的时间不计入。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Timing {0} …</source>
        <translation>正在计时 {0} …</translation>
    </message>
    <message>
        <source>The kernel did not answer.</source>
        <translation>内核没有回应。</translation>
    </message>
    <message>
        <source>The kernel has stopped: run the recipe again.</source>
        <translation>内核已停止：请重新运行配方。</translation>
    </message>
    <message>
        <source>Timing on {0} ({1}/{2})</source>
        <translation>正在 {0} 上计时（{1}/{2}）</translation>
    </message>
    <message>
        <source>median {0}, interquartile range {1}</source>
        <translation>中位数 {0}，四分位距 {1}</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Timed {0}</source>
        <translation>已计时 {0}</translation>
    </message>
    <message>
        <source>Select a step, then press Time it.</source>
        <translation>选择一个步骤，然后点击“计时”。</translation>
    </message>
    <message>
        <source>Select a step that ran without an error to time it.</source>
        <translation>选择一个运行无误的步骤来计时。</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>What the loop is doing</source>
        <extracomment>How often the plots take what the loop reported, in milliseconds (display rate).</extracomment>
        <translation>循环正在做什么</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>The loop shown: loss, learning rate, each layer&apos;s output std and gradient norm</source>
        <translation>当前显示的循环：损失、学习率、每一层输出的标准差和梯度范数</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Every layer&apos;s weights and gradients over the steps, as bands of percentiles</source>
        <translation>每层的权重和梯度随步数的变化，以百分位色带表示</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>One layer&apos;s weights and gradients, now and over time</source>
        <translation>某一层的权重和梯度，当前的分布以及随时间的变化</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Every run kept: losses overlaid, and what differed in the recipe that made each</source>
        <translation>保留的每一次运行：损失叠加显示，并列出产生它们的配方有哪些不同</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>The recipe&apos;s training loop, live: loss, learning rate, each layer&apos;s output std and gradient norm</source>
        <translation>配方的训练循环，实时显示：损失、学习率、每一层输出的标准差和梯度范数</translation>
    </message>
    <message>
        <source>Loop at line {0}</source>
        <translation>第 {0} 行的循环</translation>
    </message>
    <message>
        <source>step {0}</source>
        <translation>第 {0} 步</translation>
    </message>
    <message>
        <source>loss {0}</source>
        <translation>损失 {0}</translation>
    </message>
    <message>
        <source>loss NaN</source>
        <translation>损失 NaN</translation>
    </message>
    <message>
        <source>lr {0}</source>
        <translation>学习率 {0}</translation>
    </message>
    <message>
        <source>The loss of step {0} is not a number: the loop waits before its backward(). Look at the values, then Go on or Stop.</source>
        <translation>第 {0} 步的损失不是一个数（NaN）：循环停在它的 backward() 之前。看一看各个值，然后选择继续或停止。</translation>
    </message>
    <message>
        <source>Paused before step {0}&apos;s backward().</source>
        <translation>已暂停在第 {0} 步的 backward() 之前。</translation>
    </message>
    <message>
        <source>The loop ran {0} steps.</source>
        <translation>循环运行了 {0} 步。</translation>
    </message>
    <message>
        <source>This file has not run yet: choose Run in the bar above the views.</source>
        <translation>这个文件还没有运行：请在视图上方的提示栏中选择“运行”。</translation>
    </message>
    <message>
        <source>Change learning rate</source>
        <translation>修改学习率</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Save the plots of the page shown as PNG or SVG, or the loop&apos;s numbers as CSV</source>
        <translation>把当前页面的图保存为 PNG 或 SVG，或把循环的数值保存为 CSV</translation>
    </message>
    <message>
        <source>Plots as PNG or SVG...</source>
        <translation>图表（PNG 或 SVG）...</translation>
    </message>
    <message>
        <source>Numbers as CSV...</source>
        <translation>数值（CSV）...</translation>
    </message>
    <message>
        <source>Change {0}</source>
        <translation>修改 {0}</translation>
    </message>
    <message>
        <source>Train on {0}</source>
        <translation>在 {0} 上训练</translation>
    </message>
</context>
<context>
    <name>TrainingSettings</name>
    <message>
        <source>PyTorch default</source>
        <translation>PyTorch 默认</translation>
    </message>
    <message>
        <source>Xavier uniform</source>
        <translation>Xavier 均匀</translation>
    </message>
    <message>
        <source>Xavier normal</source>
        <translation>Xavier 正态</translation>
    </message>
    <message>
        <source>Kaiming uniform</source>
        <translation>Kaiming 均匀</translation>
    </message>
    <message>
        <source>Kaiming normal</source>
        <translation>Kaiming 正态</translation>
    </message>
    <message>
        <source>Zeros</source>
        <translation>全零</translation>
    </message>
    <message>
        <source>Spirals</source>
        <translation>螺旋</translation>
    </message>
    <message>
        <source>Circles</source>
        <translation>同心圆</translation>
    </message>
    <message>
        <source>Moons</source>
        <translation>双月</translation>
    </message>
    <message>
        <source>Gaussian blobs</source>
        <translation>高斯团</translation>
    </message>
    <message>
        <source>Linear plus noise</source>
        <translation>线性加噪声</translation>
    </message>
    <message>
        <source>CSV file</source>
        <translation>CSV 文件</translation>
    </message>
    <message>
        <source>Cross-entropy</source>
        <translation>交叉熵</translation>
    </message>
    <message>
        <source>BCE with logits</source>
        <translation>带 logits 的 BCE</translation>
    </message>
    <message>
        <source>Constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <source>Linear warm-up</source>
        <translation>线性预热</translation>
    </message>
    <message>
        <source>Cosine with warm-up</source>
        <translation>余弦（带预热）</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不裁剪</translation>
    </message>
    <message>
        <source>By value</source>
        <translation>按值</translation>
    </message>
    <message>
        <source>By norm</source>
        <translation>按范数</translation>
    </message>
    <message>
        <source>expected a dict, not {0}</source>
        <extracomment>Data kinds with a fixed number of classes.</extracomment>
        <translation>应为字典，而不是 {0}</translation>
    </message>
    <message>
        <source>unknown setting; known: {0}</source>
        <translation>未知的设置；已知的有：{0}</translation>
    </message>
    <message>
        <source>expected {0}, not {1}</source>
        <translation>应为 {0}，而不是 {1}</translation>
    </message>
    <message>
        <source>must be True or False, not {0!r}</source>
        <translation>必须是 True 或 False，而不是 {0!r}</translation>
    </message>
    <message>
        <source>must be a whole number, not {0!r}</source>
        <translation>必须是整数，而不是 {0!r}</translation>
    </message>
    <message>
        <source>must be a number, not {0!r}</source>
        <translation>必须是数字，而不是 {0!r}</translation>
    </message>
    <message>
        <source>must be a finite number, not {0!r}</source>
        <translation>必须是有限的数，而不是 {0!r}</translation>
    </message>
    <message>
        <source>must be a string, not {0!r}</source>
        <translation>必须是字符串，而不是 {0!r}</translation>
    </message>
    <message>
        <source>{0!r} is not one of: {1}</source>
        <translation>{0!r} 不在可选值之中：{1}</translation>
    </message>
    <message>
        <source>{0!r} is outside {1}</source>
        <translation>{0!r} 超出范围 {1}</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入数</translation>
    </message>
    <message>
        <source>Hidden width</source>
        <translation>隐藏层宽度</translation>
    </message>
    <message>
        <source>Hidden layers</source>
        <translation>隐藏层数</translation>
    </message>
    <message>
        <source>Depth: up to 100 hidden layers.</source>
        <translation>深度：最多 100 个隐藏层。</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出数</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Dropout p</source>
        <translation>Dropout 概率</translation>
    </message>
    <message>
        <source>0 means no Dropout layer.</source>
        <translation>0 表示不加 Dropout 层。</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <source>Validation split</source>
        <translation>验证集比例</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>类别数</translation>
    </message>
    <message>
        <source>For spirals, circles and blobs.</source>
        <translation>用于螺旋、同心圆和高斯团数据。</translation>
    </message>
    <message>
        <source>Numbers only; the last columns are the targets.</source>
        <translation>只能是数字；最后几列是目标。</translation>
    </message>
    <message>
        <source>Target columns</source>
        <translation>目标列数</translation>
    </message>
    <message>
        <source>For a CSV file.</source>
        <translation>用于 CSV 文件。</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Shuffle</source>
        <translation>打乱顺序</translation>
    </message>
    <message>
        <source>Drop last</source>
        <translation>丢弃最后一批</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>动量</translation>
    </message>
    <message>
        <source>SGD and RMSprop.</source>
        <translation>用于 SGD 和 RMSprop。</translation>
    </message>
    <message>
        <source>Nesterov</source>
        <translation>Nesterov 动量</translation>
    </message>
    <message>
        <source>SGD with momentum.</source>
        <translation>用于带动量的 SGD。</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度方式</translation>
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Gradient clipping</source>
        <translation>梯度裁剪</translation>
    </message>
    <message>
        <source>Clip at</source>
        <translation>裁剪阈值</translation>
    </message>
    <message>
        <source>The largest gradient value, or the largest total norm.</source>
        <translation>允许的最大梯度值，或最大总范数。</translation>
    </message>
    <message>
        <source>Initialisation</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Accumulate batches</source>
        <translation>梯度累积批数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Log every</source>
        <translation>记录间隔（步）</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>cpu, cuda:N or mps; cpu when not present.</source>
        <translation>cpu、cuda:N 或 mps；本机没有时使用 cpu。</translation>
    </message>
    <message>
        <source>{0!r} is not cpu, cuda, cuda:N or mps</source>
        <translation>{0!r} 不是 cpu、cuda、cuda:N 或 mps</translation>
    </message>
    <message>
        <source>the {0} data has {1} feature(s), so the model needs {1} input(s)</source>
        <translation>{0} 数据有 {1} 个特征，所以模型需要 {1} 个输入</translation>
    </message>
    <message>
        <source>{0} is regression data: use mse</source>
        <translation>{0} 是回归数据：请用 mse</translation>
    </message>
    <message>
        <source>{0} data has one target: use 1 output</source>
        <translation>{0} 数据只有一个目标：请用 1 个输出</translation>
    </message>
    <message>
        <source>cross-entropy on {0} classes needs {0} outputs</source>
        <translation>{0} 个类别的交叉熵需要 {0} 个输出</translation>
    </message>
    <message>
        <source>use 1 output (the label) or {0} (one-hot) with this loss</source>
        <translation>这个损失请用 1 个输出（标签）或 {0} 个输出（独热编码）</translation>
    </message>
    <message>
        <source>choose a CSV file</source>
        <translation>请选择一个 CSV 文件</translation>
    </message>
    <message>
        <source>cross-entropy takes one column of class indices</source>
        <translation>交叉熵只接受一列类别索引</translation>
    </message>
    <message>
        <source>Nesterov needs SGD with momentum above 0</source>
        <translation>Nesterov 动量需要 SGD 且动量大于 0</translation>
    </message>
    <message>
        <source>BatchNorm1d needs batches of at least 2</source>
        <translation>BatchNorm1d 需要每批至少 2 个样本</translation>
    </message>
    <message>
        <source>with drop_last, a batch larger than the {0} training samples leaves no batch at all</source>
        <translation>开启 drop_last 时，批大小超过 {0} 个训练样本就一批也没有了</translation>
    </message>
    <message>
        <source>{0} samples leave a last batch of one, which BatchNorm1d cannot train on</source>
        <translation>{0} 个样本会剩下只有 1 个样本的最后一批，BatchNorm1d 无法用它训练</translation>
    </message>
    <message>
        <source>{0} warm-up steps is more than the {1} steps</source>
        <translation>预热步数 {0} 超过了总步数 {1}</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Batches</source>
        <translation>批次</translation>
    </message>
    <message>
        <source>Learning-rate schedule</source>
        <translation>学习率调度</translation>
    </message>
</context>
<context>
    <name>Trust</name>
    <message>
        <source>The file is {0:.1f} MiB; a recipe is at most {1} MiB.</source>
        <extracomment>How many autosaved texts of running recipes the store keeps (one per session is used).</extracomment>
        <translation>文件大小为 {0:.1f} MiB；配方最多 {1} MiB。</translation>
    </message>
    <message>
        <source>The file is binary, not Python text.</source>
        <translation>这是二进制文件，不是 Python 文本。</translation>
    </message>
    <message>
        <source>The file is not UTF-8 text (byte {0}).</source>
        <translation>文件不是 UTF-8 文本（第 {0} 个字节）。</translation>
    </message>
    <message>
        <source>Line {0}: {1}</source>
        <translation>第 {0} 行：{1}</translation>
    </message>
    <message>
        <source>The code nests too deeply for Python&apos;s parser to read it.</source>
        <translation>代码嵌套太深，Python 的解析器无法读取。</translation>
    </message>
</context>
<context>
    <name>TrustBar</name>
    <message>
        <source>line {0}, column {1}: {2}</source>
        <translation>第 {0} 行第 {1} 列：{2}</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run this recipe&apos;s Python code now, this once. Its values then show.</source>
        <translation>现在运行一次这个配方的 Python 代码，之后会显示它的值。</translation>
    </message>
    <message>
        <source>Always run this file</source>
        <translation>总是运行此文件</translation>
    </message>
    <message>
        <source>Run it now, and every time this file opens from now on.</source>
        <translation>现在运行，并且以后每次打开此文件时都运行。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Hide this message.</source>
        <translation>隐藏这条消息。</translation>
    </message>
    <message>
        <source>The restored recipe did not come from this lab. Running it runs its Python code on this computer.</source>
        <translation>恢复的配方不是来自本实验室。运行它会在这台计算机上运行其中的 Python 代码。</translation>
    </message>
    <message>
        <source>{0}: this recipe came from elsewhere. Running it runs its Python code on this computer.</source>
        <translation>{0}：这个配方来自别处。运行它就会在这台电脑上运行其中的 Python 代码。</translation>
    </message>
    <message>
        <source>{0} did not open: {1}</source>
        <translation>{0} 未能打开：{1}</translation>
    </message>
    <message>
        <source>{0} cannot be read as Python, so nothing of it runs: {1}</source>
        <translation>{0} 无法作为 Python 读取，因此其中的代码都不会运行：{1}</translation>
    </message>
</context>
<context>
    <name>ViewerPanel</name>
    <message>
        <source>The selected step</source>
        <extracomment>Above this many elements a tensor opens as a heatmap rather than a grid. The most cells a heatmap asks the kernel for (about 512x512): more than it can show on a screen, a quarter of a 1000x1000 plane&apos;s bytes. The facts&apos; and statistics&apos; texts written inside ``batched``: only the last of each is set on its label, at the end.</extracomment>
        <translation>所选步骤</translation>
    </message>
    <message>
        <source>The step&apos;s code</source>
        <translation>该步骤的代码</translation>
    </message>
    <message>
        <source>What the step produced</source>
        <translation>该步骤产生的结果</translation>
    </message>
    <message>
        <source>Statistics of the finite values: NaN and ±inf are left out and counted instead. std is the sample standard deviation.</source>
        <extracomment>The facts shown, in order.</extracomment>
        <translation>有限值的统计：NaN 和 ±inf 不计入统计，而是单独计数。std 是样本标准差。</translation>
    </message>
    <message>
        <source>The plane&apos;s values; hover a cell for its full value</source>
        <translation>该平面的值；悬停在单元格上可查看完整值</translation>
    </message>
    <message>
        <source>The plane as colours; hover for a cell&apos;s value</source>
        <translation>以颜色显示该平面；悬停可查看单元格的值</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Every value as a number</source>
        <translation>以数字显示每个值</translation>
    </message>
    <message>
        <source>Values as colours; the default above {n:,} elements</source>
        <translation>以颜色显示值；超过 {n:,} 个元素时默认使用</translation>
    </message>
    <message>
        <source>The code is not Python yet: what shows here is from the last text that read as Python.</source>
        <translation>代码还不是合法的 Python：这里显示的是最后一次能作为 Python 读取的文本的结果。</translation>
    </message>
    <message>
        <source>What this step printed, and its modules as print() shows them; the Output pane keeps the whole run&apos;s output</source>
        <translation>此步骤打印的内容，以及其模块按 print() 显示的样子；输出窗格保留整次运行的输出</translation>
    </message>
    <message>
        <source>Size of each dimension</source>
        <translation>每个维度的大小</translation>
    </message>
    <message>
        <source>Element type</source>
        <translation>元素类型</translation>
    </message>
    <message>
        <source>Where the elements live</source>
        <translation>元素所在的设备</translation>
    </message>
    <message>
        <source>Number of elements</source>
        <translation>元素个数</translation>
    </message>
    <message>
        <source>numel × element size: the memory the elements take</source>
        <translation>numel × 元素大小：元素占用的内存</translation>
    </message>
    <message>
        <source>Elements to skip in storage to step one along each dimension</source>
        <translation>沿每个维度前进一步需要在存储中跳过的元素数</translation>
    </message>
    <message>
        <source>Where the tensor&apos;s first element sits in its storage</source>
        <translation>张量的第一个元素在其存储中的位置</translation>
    </message>
    <message>
        <source>Whether the elements lie in storage in row-major order</source>
        <translation>元素在存储中是否按行优先顺序排列</translation>
    </message>
    <message>
        <source>Whether autograd records operations on it</source>
        <translation>autograd 是否记录对它的运算</translation>
    </message>
    <message>
        <source>Whether it was made by the user rather than by an operation</source>
        <translation>是否由用户创建（而非由运算产生）</translation>
    </message>
    <message>
        <source>The autograd node that made it, if any</source>
        <translation>产生它的 autograd 节点（如有）</translation>
    </message>
    <message>
        <source>{fact}:</source>
        <translation>{fact}：</translation>
    </message>
    <message>
        <source>The dimension shown down the rows</source>
        <translation>作为行显示的维度</translation>
    </message>
    <message>
        <source>The dimension shown across the columns</source>
        <translation>作为列显示的维度</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>dim {d}:</source>
        <translation>维度 {d}：</translation>
    </message>
    <message>
        <source>The index of dimension {d} that the plane is taken at</source>
        <translation>截取该平面时维度 {d} 的索引</translation>
    </message>
    <message>
        <source>… {0} more lines</source>
        <extracomment>A heatmap&apos;s sample this sparse (every third row or column, or fewer) is replaced by the kernel&apos;s image of block means; every other row and column shows a plane well enough (a 1000x1000 one: an edit&apos;s repaint asks nothing more). The most lines of a step&apos;s printed output the viewer shows: its last ones (the Output pane keeps the whole run&apos;s).</extracomment>
        <translation>… 还有 {0} 行</translation>
    </message>
    <message>
        <source>{0}, as print() shows it:</source>
        <translation>{0}，按 print() 的显示：</translation>
    </message>
    <message>
        <source>In iteration {0} it printed:</source>
        <translation>第 {0} 次迭代打印了：</translation>
    </message>
    <message>
        <source>In iteration {0} it printed nothing.</source>
        <translation>第 {0} 次迭代没有打印任何内容。</translation>
    </message>
    <message>
        <source>… {0} earlier lines (the Output pane has the run&apos;s output)</source>
        <translation>… 前面还有 {0} 行（输出窗格中有本次运行的输出）</translation>
    </message>
    <message>
        <source>It printed:</source>
        <translation>它打印了：</translation>
    </message>
    <message>
        <source>The whole loop printed:</source>
        <translation>整个循环打印了：</translation>
    </message>
    <message>
        <source>Select a step to see its value.</source>
        <extracomment>The values of a small tensor shown whole (a loop iteration&apos;s, from its summary). A module&apos;s parameter or buffer shown instead of the step&apos;s value: (the step&apos;s index, its name, its summary), while that step stays selected (``show_part``). The kernel&apos;s tensor shown: (run, statement, name, number of dimensions). A plane&apos;s question is to be sent (``_ask_plane``): the document&apos;s ``asking`` holds meanwhile, and is let go should the view close first.</extracomment>
        <translation>选择一个步骤以查看它的值。</translation>
    </message>
    <message>
        <source>{kind}: {message}</source>
        <translation>{kind}：{message}</translation>
    </message>
    <message>
        <source>Stopped while it ran: {message}</source>
        <translation>运行中被停止：{message}</translation>
    </message>
    <message>
        <source>Not run: an earlier step stopped the run.</source>
        <translation>未运行：之前的步骤中止了运行。</translation>
    </message>
    <message>
        <source>Code: the kernel runs it, as python does. Its values show when it has run.</source>
        <translation>代码：由内核运行，与 python 运行的方式相同。运行之后会显示它的值。</translation>
    </message>
    <message>
        <source>The loop ran {0} iterations; at the end of iteration {1}:</source>
        <translation>循环运行了 {0} 次迭代；在第 {1} 次迭代结束时：</translation>
    </message>
    <message>
        <source>The loop ran {0} iterations.</source>
        <translation>循环运行了 {0} 次迭代。</translation>
    </message>
    <message>
        <source>It bound no new names.</source>
        <translation>它没有绑定新的名称。</translation>
    </message>
    <message>
        <source>Shown below: {0}, opened from the Model tab</source>
        <translation>下方显示：{0}，从“模型”页打开</translation>
    </message>
    <message>
        <source>It changed in place, through another object: {0}</source>
        <translation>它通过另一个对象原地修改了：{0}</translation>
    </message>
    <message>
        <source>Statistics: computing…</source>
        <translation>统计：正在计算…</translation>
    </message>
    <message>
        <source>Statistics could not be taken: {message}</source>
        <translation>无法计算统计：{message}</translation>
    </message>
    <message>
        <source>dim {d} (size {n})</source>
        <translation>维度 {d}（大小 {n}）</translation>
    </message>
    <message>
        <source>dim {d}</source>
        <translation>维度 {d}</translation>
    </message>
    <message>
        <source>dim 0</source>
        <translation>维度 0</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>The loop&apos;s iterations the kernel kept: the first 100, an even sample after them, and the last</source>
        <translation>内核保留的循环迭代：前 100 次、其后均匀抽样的若干次，以及最后一次</translation>
    </message>
    <message>
        <source>Type an iteration: the nearest one kept is shown</source>
        <translation>输入一个迭代序号：会显示最接近的已保留迭代</translation>
    </message>
    <message>
        <source>of {0}</source>
        <translation>共 {0} 次</translation>
    </message>
</context>
</TS>
