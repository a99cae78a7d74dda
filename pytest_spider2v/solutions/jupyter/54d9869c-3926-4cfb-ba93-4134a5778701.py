# Complete ~/Desktop/SVM.ipynb below its TODO comments (import sklearn's svm, a linear SVC named
# clf, fit it on the training split, y_pred for the test split, print the accuracy score), then
# run all cells and save the notebook.
# %% add the code under each TODO comment
import json
path = "/home/user/Desktop/SVM.ipynb"
notebook = json.load(open(path))
code = {
    "# TODO1:": "from sklearn import svm",
    "# TODO2:": "clf = svm.SVC(kernel='linear')",
    "# TODO3:": "clf.fit(X_train, y_train)",
    "# TODO4:": "y_pred = clf.predict(X_test)",
    "# TODO5:": "print(metrics.accuracy_score(y_test, y_pred))",
}
for cell in notebook["cells"]:
    lines = []
    for line in "".join(cell["source"]).split("\n"):
        lines.append(line)
        lines += [added for todo, added in code.items() if line.startswith(todo)]
    cell["source"] = "\n".join(lines).splitlines(keepends=True)
with open(path, "w") as handle:
    json.dump(notebook, handle, indent=1)

# %% run all cells in the notebook's kernel and save the outputs
import subprocess
done = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace", "SVM.ipynb"],
                      cwd="/home/user/Desktop", capture_output=True, text=True, timeout=600)
print(done.returncode, done.stderr[-500:])

# %%
DONE
