# Create an annotation layer named Myannotation: Settings > Annotation Layers, + Annotation
# layer, its name, Add.
# %% Settings > Annotation Layers
from desktop import focus
from superset_ui import menu
focus("Chromium")
menu("Settings", "Annotation Layers", expect=("push button", "+ ANNOTATION LAYER"))

# %% + Annotation layer: name Myannotation, Add (and wait until Superset has it)
from superset_ui import api, click, fill, until
click("push button", "+ ANNOTATION LAYER")
fill("entry", None, "Myannotation", label="ANNOTATION LAYER NAME")
click("push button", "ADD")
if not until(lambda: any(layer["name"] == "Myannotation" for layer in api("annotation_layer/")["result"]), 30):
    raise SystemExit("no layer Myannotation")

# %%
DONE
