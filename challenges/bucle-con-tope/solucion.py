# La solución de referencia de «bucle-con-tope».


def ejecutar(ll, entorno):
    """Ejecuta la llamada `ll` sobre `entorno` y devuelve su tool_result."""
    funcion = FUNCIONES[ll["name"]]
    return resultado(ll["id"], funcion(entorno, **ll["input"]))


def bucle(modelo, inicio, entorno, tope):
    """Llama al modelo, ejecuta lo que pide y le devuelve lo observado, hasta que
    responda sin llamadas («fin») o se agote el tope de llamadas al modelo («tope»)."""
    M = list(inicio)
    for _ in range(tope):
        respuesta = modelo(M, HERRAMIENTAS)
        M.append(("asistente", respuesta))
        llamadas = [b for b in respuesta if b["type"] == "tool_use"]
        if not llamadas:
            texto = " ".join(b["text"] for b in respuesta if b["type"] == "text")
            return ("fin", texto, M)
        M.append(("usuario", [ejecutar(ll, entorno) for ll in llamadas]))
    return ("tope", None, M)
