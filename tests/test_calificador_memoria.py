"""What the wall and a run put aside remember from one run to the next (:mod:`.muralla`'s
names already seen, :mod:`.estado`'s namespaces already looked through) never hides a change."""

import sys
import types

from widgets.calificador import estado, muralla


def test_a_hidden_module_imported_after_the_wall_first_went_up_is_hidden_too():
    with muralla.Murado():
        pass
    nuevo = types.ModuleType("widgets._visto_despues")
    sys.modules["widgets._visto_despues"] = nuevo
    try:
        with muralla.Murado():
            assert "widgets._visto_despues" not in sys.modules
        assert sys.modules["widgets._visto_despues"] is nuevo
    finally:
        sys.modules.pop("widgets._visto_despues", None)


def test_a_list_a_module_holds_since_the_last_run_is_put_back_too():
    modulo = types.ModuleType("modulo_de_prueba_memoria")
    sys.modules[modulo.__name__] = modulo
    try:
        with estado.Aparte():
            pass
        modulo.lista = [1]  # after the first run: the module's namespace changed
        modulo.Clase = type("Clase", (), {"__module__": modulo.__name__})
        with estado.Aparte():
            modulo.lista.append(2)
            modulo.Clase.contador = 1
        assert modulo.lista == [1]
        assert not hasattr(modulo.Clase, "contador")
    finally:
        del sys.modules[modulo.__name__]
